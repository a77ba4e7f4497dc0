/**
 * One deployment for every part: a fresh database with the real migrations, a merchant and its
 * key (the operator CLI), the seeded businesses, the built API in production mode, the reference
 * server and every sandbox (each its own process, on free ports), and what the parts do with
 * them: measure a server, start a worker, run `ledger:verify`.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english';
import type autocannon from 'autocannon';
import Redis from 'ioredis';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { serviceEnvOf, STAGING_CHAINS } from '../sandbox/chains/profiles';
import { loadConfig } from '../src/config/app.config';
import { DEV_WALLET_MNEMONIC } from '../src/config/dev-secrets';
import { CHAIN_NAMES, type ChainName } from '../src/config/vault-chains.config';
import { prepareDatabase } from '../src/database/migrate';
import { dropDatabase } from '../src/database/ensure-database';
import { BANK_RAIL_CALLBACK_PATH, BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from '../src/modules/rail-events/rail-events.routes';
import { WalletDeriver } from '../src/modules/wallets/wallet.deriver';
import { load, measure, Measurement, reportRailApart, rssMb, Scenario, ServerName } from './measure';
import type { Target } from './money';
import { abort, checkAborted, childEnv, freePort, log, pidOf, startChild, Started, waitPrinted, waitReady } from './processes';
import {
  API_NODE_ARGS,
  CONTRACT_NODE_ARGS,
  APP_LOG_LEVEL,
  APP_MAIN,
  BANK_RAIL_SANDBOX_MAIN,
  BRIDGE_RAIL_SANDBOX_MAIN,
  BUSINESSES,
  CHAINS_SANDBOX_MAIN,
  DB_POOL_SIZE,
  EXTRA_WORKER_NODE_ARGS,
  HOST,
  ID_SAMPLE,
  LEDGER_CLI,
  MAIL_SANDBOX_MAIN,
  MERCHANT_CLI,
  PARTS,
  PAYOUT_DELAY_MS,
  PAYOUT_RAIL_SANDBOX_MAIN,
  PROVIDER_SANDBOX_MAIN,
  QUEUE_PREFIX,
  REDIS_URL,
  REFERENCE_MAIN,
  ROOT_DIR,
  SETTLEMENT_STEP_MS,
  VAULT_CONFIRMATIONS,
  VAULT_POLL_MS,
  WORKER_DB_POOL_SIZE,
  WORKER_MAIN,
} from './settings';

/** A server the parts load: its pid (for its CPU), its URL and the headers every request carries. */
export interface Server {
  pid: number;
  url: string;
  headers: Record<string, string>;
  /** The service's operator port (its `/metrics`); the reference has none. */
  opsUrl?: string;
}

/** A worker of the deployment and its operator port. */
export type StartedWorker = Started & { opsUrl: string };

export interface RunOptions {
  connections?: number;
  durationS?: number;
  /** Instead of the server's own (the API key): the dashboard's requests carry their own credentials. */
  headers?: Record<string, string>;
}

export interface Deployment {
  databaseUrl: string;
  /** The deployment's `LINK_SIGNING_SECRET`, under which the service seals what it must read back. */
  linkSigningSecret: string;
  merchantId: string;
  apiKey: string;
  /** A sample of the seeded businesses' ids, in random order (none when no part needs them). */
  businessIds: string[];
  servers: Record<Exclude<ServerName, 'api-unmeasured'>, Server> & Partial<Record<ServerName, Server>>;
  provider: { url: string; apiKey: string };
  rail: { url: string; apiKey: string; pid: number };
  bridgeRail: { url: string; pid: number };
  payoutRail: { url: string; pid: number };
  /** The local chains, when the vault part runs. */
  chains?: { rpcUrls: Record<ChainName, string>; faucetUrl: string; faucetApiKey: string };
  /** Every measured run of every part, for the summary table. */
  runs: Measurement[];
  workerNodeArgs: string[];
  /** The API's node flags: those of `npm run start:api`, then `BENCH_API_NODE_ARGS`. */
  apiNodeArgs: string[];
  /** A measured run against a server, recorded in `runs`. */
  measure: (scenario: Scenario, server: ServerName, round: number, requests: autocannon.Request[], options?: RunOptions) => Promise<Measurement>;
  /** Load that is not measured (a warm-up). */
  warm: (label: string, server: ServerName, requests: autocannon.Request[], options: RunOptions & { durationS: number }) => Promise<autocannon.Result>;
  /** `npm run ledger:verify` against the bench database and rails (`full`: with `--full`). */
  verifyLedger: (options?: { full?: boolean }) => Promise<{ code: number | null; report: unknown }>;
  /** Another merchant and its API key, through the operator CLI. */
  createMerchant: (name: string) => Promise<{ merchantId: string; apiKey: string }>;
  /** Forgets the bank rail's records, so a worker started later has none of the runs before to reconcile. */
  resetRail: () => Promise<void>;
  /** A built worker of the deployment, once it printed that it started; `chains` lets it read the vault's chains. */
  startWorker(
    name: string,
    options?: { chains?: boolean; countStdout?: readonly string[]; exitIsMeasured?: boolean; env?: Record<string, string> },
  ): Promise<StartedWorker>;
}

/** What a part adds to the report: its targets, and its figures under its own key of the results file. */
export interface PartOutcome {
  targets: Target[];
  results: Record<string, unknown>;
}

export type BenchPart = (deployment: Deployment) => Promise<PartOutcome>;

/** How long each `ledger:verify` of the run took, start to exit. */
export const verifyMs: number[] = [];

/** Starts everything (children are pushed onto `started` as they start, for the caller to stop). */
export async function deploy(databaseUrl: string, started: Started[]): Promise<Deployment> {
  // 1. A fresh database with the real migrations.
  await dropDatabase(databaseUrl);
  await prepareDatabase(loadConfig({ NODE_ENV: 'development', DATABASE_URL: databaseUrl }));
  checkAborted();

  // 2. A merchant and its API key, through the operator CLI.
  const issued = await createMerchant(databaseUrl);
  log(`merchant ${issued.merchantId} created with key ${issued.apiKey.slice(0, 12)}…`);

  // 3. Seed the businesses (every part but the international one uses them; it creates its own).
  const ids =
    PARTS.has('core') ||
    PARTS.has('money') ||
    PARTS.has('collections') ||
    PARTS.has('dashboard') ||
    PARTS.has('kyb') ||
    PARTS.has('kyb-worker') ||
    PARTS.has('ops')
      ? await seed(databaseUrl, issued.merchantId)
      : [];
  checkAborted();

  // 4. Start the servers and the sandboxes.
  const [apiPort, refPort, providerPort, railPort, bridgePort, payoutPort, smtpPort, inboxPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const apiUrl = `http://${HOST}:${apiPort}`;
  const providerApiKey = randomBytes(16).toString('hex');
  const provider = startChild('verification sandbox', PROVIDER_SANDBOX_MAIN, {
    SANDBOX_VERIFICATION_PORT: String(providerPort),
    VERIFICATION_PROVIDER_API_KEY: providerApiKey,
    SANDBOX_REVIEW_DELAY_MS: '2000',
  });
  started.push(provider);
  const providerUrl = `http://${HOST}:${providerPort}`;
  // The sandbox bank rail, its own process (its CPU is not the bench's): payment intents and
  // withdrawals call it in the request, and it calls the API back with signed payout events.
  const railApiKey = randomBytes(16).toString('hex');
  const railWebhookSecret = randomBytes(32).toString('hex');
  const rail = startChild('bank rail sandbox', BANK_RAIL_SANDBOX_MAIN, {
    SANDBOX_BANK_RAIL_PORT: String(railPort),
    BANK_RAIL_API_KEY: railApiKey,
    BANK_RAIL_WEBHOOK_SECRET: railWebhookSecret,
    SANDBOX_BANK_RAIL_CALLBACK_URL: `${apiUrl}${BANK_RAIL_CALLBACK_PATH}`,
    SANDBOX_PAYOUT_DELAY_MS: String(PAYOUT_DELAY_MS),
  });
  started.push(rail);
  const railUrl = `http://${HOST}:${railPort}`;
  // The cross-border rails of international payment intents (the API refuses to start in
  // production without their keys), each its own process. Every leg is final in the rail's answer
  // (settlement step 0), and the rail calls the API back with its signed event right after.
  const crossBorder = {
    bridge: { apiKey: randomBytes(16).toString('hex'), webhookSecret: randomBytes(32).toString('hex'), url: `http://${HOST}:${bridgePort}` },
    payout: { apiKey: randomBytes(16).toString('hex'), webhookSecret: randomBytes(32).toString('hex'), url: `http://${HOST}:${payoutPort}` },
  };
  // What ledger:verify needs to ask the cross-border rails what they hold.
  const railsEnv: Record<string, string> = {
    BRIDGE_RAIL_URL: crossBorder.bridge.url,
    BRIDGE_RAIL_API_KEY: crossBorder.bridge.apiKey,
    PAYOUT_RAIL_URL: crossBorder.payout.url,
    PAYOUT_RAIL_API_KEY: crossBorder.payout.apiKey,
  };
  const bridgeRail = startChild('bridge rail sandbox', BRIDGE_RAIL_SANDBOX_MAIN, {
    SANDBOX_BRIDGE_RAIL_PORT: String(bridgePort),
    BRIDGE_RAIL_API_KEY: crossBorder.bridge.apiKey,
    BRIDGE_RAIL_WEBHOOK_SECRET: crossBorder.bridge.webhookSecret,
    SANDBOX_BRIDGE_RAIL_CALLBACK_URL: `${apiUrl}${BRIDGE_RAIL_CALLBACK_PATH}`,
    SANDBOX_SETTLEMENT_STEP_MS: String(SETTLEMENT_STEP_MS),
  });
  started.push(bridgeRail);
  const payoutRail = startChild('payout rail sandbox', PAYOUT_RAIL_SANDBOX_MAIN, {
    SANDBOX_PAYOUT_RAIL_PORT: String(payoutPort),
    PAYOUT_RAIL_API_KEY: crossBorder.payout.apiKey,
    PAYOUT_RAIL_WEBHOOK_SECRET: crossBorder.payout.webhookSecret,
    SANDBOX_PAYOUT_RAIL_CALLBACK_URL: `${apiUrl}${PAYOUT_RAIL_CALLBACK_PATH}`,
    SANDBOX_SETTLEMENT_STEP_MS: String(SETTLEMENT_STEP_MS),
  });
  started.push(payoutRail);
  // Production requires a mail server: the development one (the dashboard part's sign-up mails a link).
  const mail = startChild('mail sandbox', MAIL_SANDBOX_MAIN, { SANDBOX_SMTP_PORT: String(smtpPort), SANDBOX_INBOX_PORT: String(inboxPort) });
  started.push(mail);
  // The vault part's chains: the local chains in their staging profile (production refuses
  // development's chain ids and USDC), with the platform's gas wallet and fee payer of this run's
  // mnemonic funded; blocks only for transactions and when the vault part mines them.
  const walletMnemonic = productionMnemonic();
  // Production requires the vault's chains: where they must not be read, they point at a port
  // nothing listens on, read once an hour (the worker logs each chain it could not read).
  const idleChainsEnv = {
    ...Object.fromEntries(CHAIN_NAMES.map((chain) => [`${chain.toUpperCase()}_RPC_URL`, `http://${HOST}:9`])),
    VAULT_POLL_INTERVAL_MS: '600000',
  };
  const vaultChains = PARTS.has('vault') ? await startChains(walletMnemonic, started) : undefined;
  const chainsEnv: Record<string, string> = vaultChains
    ? {
        ...serviceEnvOf(STAGING_CHAINS, vaultChains.rpcUrls),
        ...Object.fromEntries(CHAIN_NAMES.map((chain) => [`${chain.toUpperCase()}_CONFIRMATIONS`, String(VAULT_CONFIRMATIONS)])),
        VAULT_POLL_INTERVAL_MS: String(VAULT_POLL_MS),
      }
    : idleChainsEnv;
  // ledger:verify reconciles the vaults with the chains when there are chains to ask.
  if (vaultChains) Object.assign(railsEnv, serviceEnvOf(STAGING_CHAINS, vaultChains.rpcUrls));
  // The API's and the worker's environment: one deployment, same database, queues and secrets.
  const appEnv: Record<string, string> = {
    NODE_ENV: 'production',
    // Any free operator port: the parts start several workers (and the API) side by side.
    OPS_PORT: '0',
    WORKER_OPS_PORT: '0',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    PUBLIC_BASE_URL: `http://${HOST}:${apiPort}`,
    // Production refuses development secrets: fresh ones for every run.
    LINK_SIGNING_SECRET: randomBytes(32).toString('hex'),
    WALLET_MNEMONIC: walletMnemonic,
    VERIFICATION_PROVIDER_URL: providerUrl,
    VERIFICATION_PROVIDER_API_KEY: providerApiKey,
    BANK_RAIL_URL: railUrl,
    BANK_RAIL_API_KEY: railApiKey,
    BANK_RAIL_WEBHOOK_SECRET: railWebhookSecret,
    BRIDGE_RAIL_URL: crossBorder.bridge.url,
    BRIDGE_RAIL_API_KEY: crossBorder.bridge.apiKey,
    BRIDGE_RAIL_WEBHOOK_SECRET: crossBorder.bridge.webhookSecret,
    PAYOUT_RAIL_URL: crossBorder.payout.url,
    PAYOUT_RAIL_API_KEY: crossBorder.payout.apiKey,
    PAYOUT_RAIL_WEBHOOK_SECRET: crossBorder.payout.webhookSecret,
    SMTP_URL: `smtp://${HOST}:${smtpPort}`,
    // Production defaults to mk_live; the CLI (development) issued an mk_test key.
    API_KEY_PREFIX: 'mk_test',
    LOG_LEVEL: APP_LOG_LEVEL,
    QUEUE_PREFIX,
    DB_POOL_SIZE: String(DB_POOL_SIZE),
    // The limiter stays in the path (one Redis call per request) but never refuses: the bench
    // measures the service, not the limit.
    RATE_LIMIT_PER_SECOND: '10000000',
    RATE_LIMIT_BURST: '10000000',
    // Dashboard logins are a public route, limited per client IP: every bench request comes from one.
    PUBLIC_RATE_LIMIT_PER_SECOND: '10000000',
    PUBLIC_RATE_LIMIT_BURST: '10000000',
    ...chainsEnv,
  };
  // The API's operator port is fixed here, so that the bench can read its statement count.
  const apiOpsPort = await freePort();
  const apiNodeArgs = [...startNodeFlags('api'), ...API_NODE_ARGS];
  const api = startChild('api', APP_MAIN, { ...appEnv, PORT: String(apiPort), OPS_PORT: String(apiOpsPort) }, apiNodeArgs);
  started.push(api);
  // The ops part's yardstick: the same API counting nothing (`OPS_METRICS=off`), on the same database.
  const unmeasuredPort = PARTS.has('ops') ? await freePort() : undefined;
  const unmeasured =
    unmeasuredPort === undefined
      ? undefined
      : startChild('api-unmeasured', APP_MAIN, { ...appEnv, PORT: String(unmeasuredPort), OPS_METRICS: 'off' }, apiNodeArgs);
  if (unmeasured) started.push(unmeasured);
  const reference = startChild('reference', REFERENCE_MAIN, {
    NODE_ENV: 'production',
    REF_PORT: String(refPort),
    REF_MERCHANT_ID: issued.merchantId,
    REF_PUBLIC_BASE_URL: appEnv.PUBLIC_BASE_URL,
    DATABASE_URL: databaseUrl,
    DB_POOL_SIZE: String(DB_POOL_SIZE),
  });
  started.push(reference);
  const refUrl = `http://${HOST}:${refPort}`;
  // The contract reference: the plain one plus the contract's per-request work, on the API's Redis and limits.
  const contractPort = await freePort();
  const contract = startChild(
    'contract',
    REFERENCE_MAIN,
    {
      NODE_ENV: 'production',
      REF_PORT: String(contractPort),
      REF_MERCHANT_ID: issued.merchantId,
      REF_PUBLIC_BASE_URL: appEnv.PUBLIC_BASE_URL,
      REF_CONTRACT: '1',
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: String(DB_POOL_SIZE),
      REDIS_URL,
      QUEUE_PREFIX,
      RATE_LIMIT_PER_SECOND: appEnv.RATE_LIMIT_PER_SECOND,
      RATE_LIMIT_BURST: appEnv.RATE_LIMIT_BURST,
      BANK_RAIL_URL: railUrl,
      BANK_RAIL_API_KEY: railApiKey,
    },
    CONTRACT_NODE_ARGS,
  );
  started.push(contract);
  const contractUrl = `http://${HOST}:${contractPort}`;
  await Promise.all([
    waitReady(api, `${apiUrl}/health/ready`),
    ...(unmeasured ? [waitReady(unmeasured, `http://${HOST}:${unmeasuredPort}/health/ready`)] : []),
    waitReady(reference, `${refUrl}/ready`),
    waitReady(contract, `${contractUrl}/ready`),
    waitReady(provider, `${providerUrl}/health`),
    waitReady(rail, `${railUrl}/health`),
    waitReady(bridgeRail, `${crossBorder.bridge.url}/health`),
    waitReady(payoutRail, `${crossBorder.payout.url}/health`),
    waitReady(mail, `http://${HOST}:${inboxPort}/health`),
  ]);
  const apiPid = pidOf(api);
  const refPid = pidOf(reference);
  reportRailApart(pidOf(rail));
  log(`API pid ${apiPid} on :${apiPort} (RSS ${rssMb(apiPid).toFixed(0)} MB when ready), reference pid ${refPid} on :${refPort}`);

  const workerNodeArgs = [...startNodeFlags('worker'), ...EXTRA_WORKER_NODE_ARGS];
  // The other parts' workers leave the chains alone (a port nothing listens on, read hourly): the
  // vault follower would otherwise learn every seeded business's addresses in their measurements.
  const vaultWorkerEnv = { ...appEnv, DB_POOL_SIZE: String(WORKER_DB_POOL_SIZE) };
  const workerEnv = { ...vaultWorkerEnv, ...idleChainsEnv };
  const servers: Deployment['servers'] = {
    reference: { pid: refPid, url: refUrl, headers: {} },
    contract: { pid: pidOf(contract), url: contractUrl, headers: { 'x-api-key': issued.apiKey } },
    api: { pid: apiPid, url: apiUrl, headers: { 'x-api-key': issued.apiKey }, opsUrl: `http://${HOST}:${apiOpsPort}` },
    ...(unmeasured && { 'api-unmeasured': { pid: pidOf(unmeasured), url: `http://${HOST}:${unmeasuredPort}`, headers: { 'x-api-key': issued.apiKey } } }),
  };
  const server = (name: ServerName): Server => {
    const found = servers[name];
    if (!found) throw new Error(`the ${name} server was not started (its part is not selected)`);
    return found;
  };
  const runs: Measurement[] = [];
  return {
    databaseUrl,
    linkSigningSecret: appEnv.LINK_SIGNING_SECRET,
    merchantId: issued.merchantId,
    apiKey: issued.apiKey,
    businessIds: ids,
    servers,
    provider: { url: providerUrl, apiKey: providerApiKey },
    rail: { url: railUrl, apiKey: railApiKey, pid: pidOf(rail) },
    bridgeRail: { url: crossBorder.bridge.url, pid: pidOf(bridgeRail) },
    payoutRail: { url: crossBorder.payout.url, pid: pidOf(payoutRail) },
    chains: vaultChains,
    runs,
    workerNodeArgs,
    apiNodeArgs,
    measure: async (scenario, name, round, requests, options = {}) => {
      const target = { ...server(name), ...(options.headers && { headers: options.headers }), requests };
      const run = await measure(scenario, name, round, target, options);
      runs.push(run);
      return run;
    },
    warm: (label, name, requests, options) =>
      load(label, { ...server(name), ...(options.headers && { headers: options.headers }), requests }, options.durationS, options.connections),
    verifyLedger: (options) => verifyLedger(databaseUrl, railsEnv, options?.full ?? false),
    createMerchant: (name) => createMerchant(databaseUrl, name),
    resetRail: () => fetch(`${railUrl}/_sandbox/reset`, { method: 'POST', signal: AbortSignal.timeout(5_000) }).then((r) => void r.arrayBuffer()),
    startWorker: async (name, options = {}) => {
      const opsPort = await freePort();
      const env = { ...(options.chains ? vaultWorkerEnv : workerEnv), ...options.env, WORKER_OPS_PORT: String(opsPort) };
      const worker = startChild(name, WORKER_MAIN, env, workerNodeArgs, {
        watchStdout: ['worker started'],
        countStdout: options.countStdout,
        exitIsMeasured: options.exitIsMeasured,
      });
      started.push(worker);
      await waitPrinted(worker, 'worker started');
      return { ...worker, opsUrl: `http://${HOST}:${opsPort}` };
    },
  };
}

interface IssuedKey {
  merchantId: string;
  apiKeyId: string;
  apiKey: string;
}

async function createMerchant(databaseUrl: string, name = 'Bench'): Promise<IssuedKey> {
  const stdout = await new Promise<string>((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [MERCHANT_CLI, 'create', '--name', name],
      {
        cwd: ROOT_DIR,
        env: childEnv({ NODE_ENV: 'development', DATABASE_URL: databaseUrl, API_KEY_PREFIX: 'mk_test' }),
        timeout: 60_000,
        signal: abort.signal,
      },
      (err, out, errOut) => (err ? reject(new Error(`merchant CLI failed: ${err.message}\n${errOut}`)) : resolvePromise(out)),
    );
  });
  const line = stdout.trim().split('\n').pop() ?? '';
  const issued = JSON.parse(line) as Partial<IssuedKey>;
  if (!issued.merchantId || !issued.apiKey || !issued.apiKeyId) throw new Error(`unexpected merchant CLI output: ${line}`);
  return issued as IssuedKey;
}

/**
 * `npm run ledger:verify` (the built CLI) against the bench database and the bench's rails (it
 * reconciles the ledger with them; no grace: it runs once the money has settled): its exit code
 * and its JSON line.
 */
async function verifyLedger(databaseUrl: string, railsEnv: Record<string, string>, full: boolean): Promise<{ code: number | null; report: unknown }> {
  const began = performance.now();
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      full ? [LEDGER_CLI, '--full'] : [LEDGER_CLI],
      {
        cwd: ROOT_DIR,
        env: childEnv({ NODE_ENV: 'development', DATABASE_URL: databaseUrl, LEDGER_RECONCILE_GRACE_SECONDS: '0', ...railsEnv }),
        timeout: 60_000,
        signal: abort.signal,
      },
      (err, out, errOut) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        let report: unknown;
        try {
          report = JSON.parse(out.trim().split('\n').pop() ?? '');
        } catch {
          report = `${out}${errOut}`.trim() || err?.message;
        }
        verifyMs.push(performance.now() - began);
        resolvePromise({ code, report });
      },
    );
  });
}

/**
 * One INSERT … SELECT: fake but unique ids, wallet indices and addresses (the fake SVM addresses
 * contain `0`, which base58 never does, so they cannot collide with derived ones), a mix of
 * statuses that satisfies the CHECK constraints, and `created_at` increasing with `seq`.
 * The wallet-index sequence is moved past the seeded indices so POST create keeps working.
 */
async function seed(databaseUrl: string, merchantId: string): Promise<string[]> {
  const client = new CountedClient({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, statement_timeout: 120_000 });
  await client.connect();
  try {
    const began = Date.now();
    await client.query(
      `INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country,
         allow_naira_collection, naira_collection_status, wallet_index, evm_address, svm_address,
         agreement_status, agreement_accepted_at, kyb_status, kyb_pending_requirements, kyb_last_synced_at,
         created_at, updated_at)
       SELECT 'pobo_' || substr(md5('bench:' || g), 1, 24),
              $1,
              'Bench Business ' || g,
              'business' || g || '@bench.example',
              '+2348012345678',
              'NG',
              g % 5 = 0,
              CASE WHEN g % 5 = 0 THEN 'active' ELSE 'not_requested' END,
              g - 1,
              '0x' || lpad(to_hex(g), 40, '0'),
              'Bench' || lpad(g::text, 39, '0'),
              CASE WHEN g % 3 = 0 THEN 'accepted' ELSE 'pending' END,
              CASE WHEN g % 3 = 0 THEN t.at END,
              CASE WHEN g % 3 = 0 THEN 'processing' ELSE 'agreement_pending' END,
              '[]'::jsonb,
              CASE WHEN g % 3 = 0 THEN t.at END,
              t.at,
              t.at
         FROM generate_series(1, $2::int) AS g
        CROSS JOIN LATERAL (SELECT now() - ($2::int - g) * interval '1 second' AS at) AS t
        ORDER BY g`,
      [merchantId, BUSINESSES],
    );
    await client.query(`SELECT setval('pobo_wallet_index_seq', $1::int - 1, true)`, [BUSINESSES]);
    await client.query('VACUUM (ANALYZE)');
    const { rows } = await client.query<{ id: string }>('SELECT id FROM pobo_businesses WHERE merchant_id = $1 ORDER BY random() LIMIT $2', [
      merchantId,
      ID_SAMPLE,
    ]);
    log(`seeded ${BUSINESSES} businesses in ${((Date.now() - began) / 1000).toFixed(1)}s (vacuumed and analysed)`);
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/**
 * The node flags production starts a role with: those of `npm run start:<role>`
 * (`node [flags] dist/src/<entry>.js`), so that the bench measures each process as it runs.
 */
function startNodeFlags(role: 'api' | 'worker'): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const entry = role === 'api' ? 'main' : 'worker';
  const script = scripts[`start:${role}`] ?? '';
  const match = new RegExp(`^node((?:\\s+-\\S+)*)\\s+dist/src/${entry}\\.js\\s*$`).exec(script);
  if (match) return match[1].split(/\s+/).filter(Boolean);
  log(`warning: package.json start:${role} is not "node [flags] dist/src/${entry}.js" (${script}): the ${role} starts without its flags`);
  return [];
}

/** A valid BIP-39 phrase that is not the development default (which production refuses). */
function productionMnemonic(): string {
  let phrase: string;
  do phrase = generateMnemonic(english, 128);
  while (phrase === DEV_WALLET_MNEMONIC);
  return phrase;
}

/** The local chains (staging profile) and their faucet on free ports, the platform addresses of `mnemonic` funded. */
async function startChains(mnemonic: string, started: Started[]): Promise<{ rpcUrls: Record<ChainName, string>; faucetUrl: string; faucetApiKey: string }> {
  const ports = { ethereum: await freePort(), polygon: await freePort(), base: await freePort(), solana: await freePort() };
  const faucetPort = await freePort();
  const faucetApiKey = randomBytes(16).toString('hex');
  const platform = new WalletDeriver(mnemonic).platformAddresses();
  const chains = startChild('chains sandbox', CHAINS_SANDBOX_MAIN, {
    SANDBOX_CHAINS_PROFILE: 'staging',
    SANDBOX_GAS_WALLET: platform.evm,
    SANDBOX_FEE_PAYER: platform.svm,
    SANDBOX_BLOCK_MS: '0',
    SANDBOX_ETHEREUM_RPC_PORT: String(ports.ethereum),
    SANDBOX_POLYGON_RPC_PORT: String(ports.polygon),
    SANDBOX_BASE_RPC_PORT: String(ports.base),
    SANDBOX_SOLANA_RPC_PORT: String(ports.solana),
    SANDBOX_FAUCET_PORT: String(faucetPort),
    CHAIN_FAUCET_API_KEY: faucetApiKey,
  });
  started.push(chains);
  const faucetUrl = `http://${HOST}:${faucetPort}`;
  await waitReady(chains, `${faucetUrl}/health`);
  const rpcUrls = Object.fromEntries(Object.entries(ports).map(([chain, port]) => [chain, `http://${HOST}:${port}`])) as Record<ChainName, string>;
  return { rpcUrls, faucetUrl, faucetApiKey };
}

/** Deletes whatever the API left on Redis under the bench's queue prefix (bounded: SCAN, 10 s). */
export async function removeQueueKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const until = Date.now() + 10_000;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:*`, 'COUNT', 1_000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0' && Date.now() < until);
  } finally {
    redis.disconnect();
  }
}
