/**
 * `npm run bench`: seeds a merchant with 100,000 businesses in a throw-away database, starts the
 * built API in production mode, the reference server (`bench/reference-server.ts`) and the sandbox
 * rails, and measures with autocannon; then money movement (`bench/money.ts`), the KYB parts, the
 * last of which starts the built worker, and international payment intents
 * (`bench/international.ts`: GET one, and the settlement pipeline with one and two workers), and the
 * vault (`bench/vault.ts`: deposits credited and transfers out on the local chains, staging profile).
 * `BENCH_PARTS` (or the arguments) selects parts; see bench/README.md, also for reading the output.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import 'reflect-metadata';
import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { generateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { Client } from 'pg';
import { loadConfig } from '../src/config/app.config';
import { DEV_WALLET_MNEMONIC } from '../src/config/dev-secrets';
import { dropDatabase } from '../src/database/ensure-database';
import { prepareDatabase } from '../src/database/migrate';
import { PoboBusinessesRepository } from '../src/modules/pobo-businesses/pobo-businesses.repository';
import { KYB_TARGETS, runKybBench } from './kyb';
import { KYB_WORKER_TARGETS, runKybWorkerBench } from './kyb-worker';
import { MONEY_TARGETS, MoneyScenario, runMoneyBench, Target } from './money';
import { runCollectionsBench } from './collections';
import { DashboardScenario, runDashboardBench } from './dashboard';
import { INTERNATIONAL_TARGETS, InternationalBenchResult, InternationalScenario, runInternationalBench, WORKER_LOG_COUNTS } from './international';
import { findOwnedQuery, statementSent } from './reference-server';
import { runVaultBench } from './vault';
import { serviceEnvOf, STAGING_CHAINS } from '../sandbox/chains/profiles';
import { CHAIN_NAMES, type ChainName } from '../src/config/vault-chains.config';
import { WalletDeriver } from '../src/modules/wallets/wallet.deriver';
import { BANK_RAIL_CALLBACK_PATH, BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from '../src/modules/rail-events/rail-events.routes';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';

// ---------------------------------------------------------------------------------------------
// Settings. The defaults are the issue's; the environment overrides exist for quick local tries.
// ---------------------------------------------------------------------------------------------

const BUSINESSES = intEnv('BENCH_BUSINESSES', 100_000);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 50);
const DURATION_S = intEnv('BENCH_DURATION_S', 10);
const WARMUP_S = intEnv('BENCH_WARMUP_S', 3);
const ROUNDS = intEnv('BENCH_ROUNDS', 2);
/** The mixed money-movement run (create payment intent + GET one + replay), watching the API's RSS. */
const MIXED_S = intEnv('BENCH_MIXED_S', 60);
/** How long the sandbox rail keeps a payout `processing` before its outcome and callback. */
const PAYOUT_DELAY_MS = 20;
/** `info` is the production default: one access-log line per request, serialised then discarded. */
const APP_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const PG_BASE_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DATABASE_NAME = 'merchant_api_bench';
const DEADLINE_S = intEnv('BENCH_TIMEOUT_S', 1200);
/** Extra node flags for the API process only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const DB_POOL_SIZE = intEnv('BENCH_DB_POOL_SIZE', 20);
const API_NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** Extra node flags for the worker process, after those of `npm run start:worker`, e.g. `--max-semi-space-size=1`. */
const EXTRA_WORKER_NODE_ARGS = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** The worker's pool (the international pipeline's workers and the KYB worker); the API's by default. */
const WORKER_DB_POOL_SIZE = intEnv('BENCH_WORKER_DB_POOL_SIZE', DB_POOL_SIZE);
/** International pipeline: intents per run, and the worker processes of each run, in order. */
const INTL_INTENTS = intEnv('BENCH_INTL_INTENTS', 1_000);
const INTL_WORKERS = listEnv('BENCH_INTL_WORKERS', '1,2').map(Number);
/** Quotes + intents created at once while setting up a pipeline run (not measured). */
const INTL_CREATION_CONCURRENCY = intEnv('BENCH_INTL_CREATION_CONCURRENCY', 16);
/** A diagnostic: `BENCH_INTL_CALLBACKS=0` turns the cross-border rails' callbacks off for the pipeline runs. */
const INTL_CALLBACKS = process.env.BENCH_INTL_CALLBACKS !== '0';
/** The parts of the bench, in the order they run; `BENCH_PARTS` or the arguments select some (all by default). */
const ALL_PARTS = ['core', 'money', 'collections', 'dashboard', 'kyb', 'kyb-worker', 'international', 'vault'] as const;
type Part = (typeof ALL_PARTS)[number];
const PARTS = selectedParts();
/** How long the cross-border sandbox rails keep a leg pending: 0, each leg is final in the rail's answer. */
const SETTLEMENT_STEP_MS = 0;
/** Sample of seeded ids the GET-one scenarios cycle through (both servers get the same list). */
const ID_SAMPLE = 10_000;
const HOST = '127.0.0.1';
/** The vault part: confirmations on every local chain, and how often the worker reads them. */
const VAULT_CONFIRMATIONS = 3;
const VAULT_POLL_MS = intEnv('BENCH_VAULT_POLL_MS', 250);
/** Queue keys of the bench's API are kept apart from anyone else's on the shared Redis, and removed. */
const QUEUE_PREFIX = `merchant-api-bench-${process.pid}`;

const TARGETS = {
  getOneRatio: 0.6,
  listP99Ms: 50,
  createP99Ms: 50,
  rssMb: 250,
  /** The whole `npm run ledger:verify`, start to exit, on the bench database. */
  ledgerVerifyS: 3,
};

/** How long each `ledger:verify` of the run took, start to exit. */
const verifyMs: number[] = [];

const DIST_DIR = resolve(__dirname, '..');
const ROOT_DIR = resolve(DIST_DIR, '..');
const APP_MAIN = join(DIST_DIR, 'src', 'main.js');
const WORKER_MAIN = join(DIST_DIR, 'src', 'worker.js');
const MERCHANT_CLI = join(DIST_DIR, 'src', 'cli', 'merchant.cli.js');
const LEDGER_CLI = join(DIST_DIR, 'src', 'cli', 'ledger.cli.js');
const REFERENCE_MAIN = join(__dirname, 'reference-server.js');
const PROVIDER_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'verification-provider', 'main.js');
const BANK_RAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'bank-rail', 'main.js');
const BRIDGE_RAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'bridge-rail', 'main.js');
const PAYOUT_RAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'payout-rail', 'main.js');
const MAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'mail', 'main.js');
const CHAINS_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'chains', 'main.js');
const RESULTS_FILE = join(ROOT_DIR, 'bench', 'results', 'latest.json');

const CLK_TCK = clockTicks();

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

type Scenario = 'get-one' | 'list-first-page' | 'create' | MoneyScenario | DashboardScenario | InternationalScenario;
type ServerName = 'reference' | 'api';

interface Measurement {
  scenario: Scenario;
  server: ServerName;
  round: number;
  connections: number;
  requests: number;
  durationS: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU time (user + system, all threads) the server spent per completed request. */
  cpuUsPerRequest: number;
  /** Server CPU seconds per wall-clock second during the run (1 = one core saturated). */
  serverCores: number;
  /** The bench process itself (autocannon) in cores. */
  loadGeneratorCores: number;
  /** The sandbox bank rail (a child process; payment intents and withdrawals call it) in cores. */
  railCores: number;
  /** Everything else on the machine (PostgreSQL, other people's work) in cores. */
  otherCores: number;
}

interface Summary {
  scenario: Scenario;
  server: ServerName;
  rounds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  non2xx: number;
  errors: number;
  /** req/s of this row divided by the reference's GET-one req/s. */
  rpsVsReference: number;
  /** CPU µs/request of this row divided by the reference's GET-one CPU µs/request. */
  cpuVsReference: number;
}

interface Started {
  name: string;
  child: ChildProcess;
  stderrTail: () => string;
  /** Whether stdout has printed this text so far (only for the texts startChild was asked to watch for). */
  printed: (text: string) => boolean;
  /** The last lines of stdout, when piped. */
  stdoutTail: () => string;
  /** How the child exited (`code 1`, `SIGKILL`), once it has. */
  exited: () => string | undefined;
  /** How many lines of stdout so far contain `text` (only for the texts startChild was asked to count). */
  count: (text: string) => number;
  /** The last such line (its first 500 characters). */
  lastCounted: (text: string) => string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Lifecycle: every child is tracked and killed on any exit path; the database is always dropped.
// ---------------------------------------------------------------------------------------------

const children = new Set<ChildProcess>();
/** Children the bench is stopping on purpose: their exit is not a failure. */
const stopping = new Set<ChildProcess>();
const abort = new AbortController();
let currentLoad: autocannon.Instance | undefined;
/** The sandbox bank rail's pid, once it runs: its CPU is reported apart from "other". */
let railPid: number | undefined;

function stopEverything(reason: string): void {
  if (abort.signal.aborted) return;
  process.stderr.write(`\nbench: stopping (${reason})\n`);
  abort.abort(new Error(reason));
  currentLoad?.stop();
  // If cleanup itself hangs, leave anyway; the 'exit' hook still kills the children.
  setTimeout(() => process.exit(1), 20_000).unref();
}

process.once('SIGINT', () => stopEverything('SIGINT'));
process.once('SIGTERM', () => stopEverything('SIGTERM'));
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function main(): Promise<number> {
  const deadline = setTimeout(() => stopEverything(`deadline of ${DEADLINE_S}s reached`), DEADLINE_S * 1000);
  deadline.unref();
  const databaseUrl = `${PG_BASE_URL.replace(/\/+$/, '')}/${DATABASE_NAME}`;
  const startedAt = new Date();
  const started: Started[] = [];
  try {
    return await bench(databaseUrl, startedAt, started);
  } finally {
    for (const server of started) await stopChild(server.child);
    await dropDatabase(databaseUrl).catch((err: Error) => process.stderr.write(`bench: could not drop ${DATABASE_NAME}: ${err.message}\n`));
    await removeQueueKeys().catch((err: Error) => process.stderr.write(`bench: could not remove ${QUEUE_PREFIX}:* keys: ${err.message}\n`));
    clearTimeout(deadline);
  }
}

async function bench(databaseUrl: string, startedAt: Date, started: Started[]): Promise<number> {
  log(
    `machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  log(`settings: ${BUSINESSES} businesses, ${CONNECTIONS} connections, ${WARMUP_S}s warm-up, ${DURATION_S}s per run, ${ROUNDS} alternating GET-one rounds`);
  log(`parts: ${[...PARTS].join(', ')}${PARTS.size < ALL_PARTS.length ? ` (of ${ALL_PARTS.join(', ')})` : ''}`);
  if (API_NODE_ARGS.length > 0) log(`API node flags: ${API_NODE_ARGS.join(' ')}`);
  log(
    `API log level: ${APP_LOG_LEVEL} (stdout to /dev/null)${APP_LOG_LEVEL === 'info' ? ': every request is serialised to an access-log line, as in production' : ''}`,
  );

  // 1. A fresh database with the real migrations.
  await dropDatabase(databaseUrl);
  await prepareDatabase(loadConfig({ NODE_ENV: 'development', DATABASE_URL: databaseUrl }));
  checkAborted();

  // 2. A merchant and its API key, through the operator CLI.
  const issued = await createMerchant(databaseUrl);
  log(`merchant ${issued.merchantId} created with key ${issued.apiKey.slice(0, 12)}…`);

  // 3. Seed the businesses (every part but the international one uses them; it creates its own).
  const ids =
    PARTS.has('core') || PARTS.has('money') || PARTS.has('collections') || PARTS.has('dashboard') || PARTS.has('kyb') || PARTS.has('kyb-worker')
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
  const api = startChild('api', APP_MAIN, { ...appEnv, PORT: String(apiPort) }, API_NODE_ARGS);
  started.push(api);
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
  await Promise.all([
    waitReady(api, `${apiUrl}/health/ready`),
    waitReady(reference, `${refUrl}/ready`),
    waitReady(provider, `${providerUrl}/health`),
    waitReady(rail, `${railUrl}/health`),
    waitReady(bridgeRail, `${crossBorder.bridge.url}/health`),
    waitReady(payoutRail, `${crossBorder.payout.url}/health`),
    waitReady(mail, `http://${HOST}:${inboxPort}/health`),
  ]);
  const apiPid = pidOf(api);
  const refPid = pidOf(reference);
  railPid = pidOf(rail);
  log(`API pid ${apiPid} on :${apiPort} (RSS ${rssMb(apiPid).toFixed(0)} MB when ready), reference pid ${refPid} on :${refPort}`);

  const headers = { 'x-api-key': issued.apiKey };
  const servers = {
    reference: { pid: refPid, url: refUrl, headers: {} },
    api: { pid: apiPid, url: apiUrl, headers },
  };
  const runs: Measurement[] = [];
  const targets: Target[] = [];
  const workerNodeArgs = [...startWorkerNodeFlags(), ...EXTRA_WORKER_NODE_ARGS];
  // The other parts' workers leave the chains alone (a port nothing listens on, read hourly): the
  // vault follower would otherwise learn every seeded business's addresses in their measurements.
  const vaultWorkerEnv = { ...appEnv, DB_POOL_SIZE: String(WORKER_DB_POOL_SIZE) };
  const workerEnv = { ...vaultWorkerEnv, ...idleChainsEnv };
  const results: Record<string, unknown> = {};

  // 5–7. GET one business (reference / API), the list, create; the API's memory after them.
  if (PARTS.has('core')) {
    // Both servers must do the same work before their figures can be compared.
    await checkEquivalence(apiUrl, refUrl, issued.apiKey, issued.merchantId, ids[0]);

    const getOne = (): autocannon.Request[] => {
      let next = 0;
      return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${ids[next++ % ids.length]}` }) }];
    };
    let created = 0;
    const create: autocannon.Request[] = [
      {
        method: 'POST',
        path: POBO_USERS_PATH,
        headers: { ...headers, 'content-type': 'application/json' },
        setupRequest: (request) => {
          created++;
          return {
            ...request,
            body: JSON.stringify({
              businessName: `Bench Create ${created}`,
              email: `create${created}@bench.example`,
              phoneNumber: '+2348012345678',
              country: 'NG',
            }),
          };
        },
      },
    ];

    // Warm both, then alternate reference / API for GET one.
    log('');
    for (const server of ['reference', 'api'] as const) {
      await load(`warm-up ${server} GET one`, { ...servers[server], requests: getOne() }, WARMUP_S);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const server of ['reference', 'api'] as const) {
        runs.push(await measure('get-one', server, round, { ...servers[server], requests: getOne() }));
      }
    }
    await load('warm-up api list first page', { ...servers.api, requests: [{ method: 'GET', path: POBO_USERS_PATH }] }, WARMUP_S);
    runs.push(await measure('list-first-page', 'api', 1, { ...servers.api, requests: [{ method: 'GET', path: POBO_USERS_PATH }] }));
    const warmCreate = await load('warm-up api create', { ...servers.api, requests: create }, WARMUP_S);
    if (warmCreate.non2xx > 0) log(`  warning: ${warmCreate.non2xx} non-2xx answers during the create warm-up`);
    runs.push(await measure('create', 'api', 1, { ...servers.api, requests: create }));

    // Memory after the run.
    await sleep(1_000);
    const rss = rssMb(apiPid);
    const peakRss = memoryField(apiPid, 'VmHWM') / 1024;

    const core = summarise(runs);
    const refGet = core.find((s) => s.scenario === 'get-one' && s.server === 'reference')!;
    const apiGet = core.find((s) => s.scenario === 'get-one' && s.server === 'api')!;
    const list = core.find((s) => s.scenario === 'list-first-page')!;
    const createSummary = core.find((s) => s.scenario === 'create')!;
    const pairedRatios = Array.from({ length: ROUNDS }, (_, i) => {
      const ref = runs.find((r) => r.scenario === 'get-one' && r.server === 'reference' && r.round === i + 1)!;
      const app = runs.find((r) => r.scenario === 'get-one' && r.server === 'api' && r.round === i + 1)!;
      return app.rps / ref.rps;
    });
    const ratio = apiGet.rps / refGet.rps;
    const cpuRatio = refGet.cpuUsPerRequest / apiGet.cpuUsPerRequest;
    targets.push(
      {
        name: 'GET one business req/s vs reference',
        target: `≥ ${TARGETS.getOneRatio.toFixed(2)}×`,
        measured: `${ratio.toFixed(2)}× (rounds: ${pairedRatios.map((r) => r.toFixed(2)).join(', ')})`,
        pass: ratio >= TARGETS.getOneRatio,
      },
      { name: 'List first page p99', target: `< ${TARGETS.listP99Ms} ms`, measured: `${list.p99Ms.toFixed(1)} ms`, pass: list.p99Ms < TARGETS.listP99Ms },
      {
        name: 'Create p99 (all answers 201)',
        target: `< ${TARGETS.createP99Ms} ms`,
        measured: `${createSummary.p99Ms.toFixed(1)} ms, ${createSummary.non2xx} non-2xx, ${createSummary.errors} errors`,
        pass: createSummary.p99Ms < TARGETS.createP99Ms && createSummary.non2xx === 0 && createSummary.errors === 0,
      },
      {
        name: 'API RSS after the run',
        target: `< ${TARGETS.rssMb} MB`,
        measured: `${rss.toFixed(0)} MB (peak ${peakRss.toFixed(0)} MB)`,
        pass: rss < TARGETS.rssMb,
      },
    );
    results.getOne = { rpsRatio: ratio, pairedRpsRatios: pairedRatios, cpuRatio };
    results.memory = { rssMbAfterRun: rss, peakRssMb: peakRss };
  }

  // 8. Money movement: payment intents, replays, withdrawals racing over one balance, a mixed run.
  if (PARTS.has('money')) {
    log('');
    const apiGetOneRuns = runs.filter((r) => r.scenario === 'get-one' && r.server === 'api');
    const apiGetOneCpuUs =
      apiGetOneRuns.length > 0 ? sum(apiGetOneRuns.map((r) => r.cpuUsPerRequest * r.requests)) / sum(apiGetOneRuns.map((r) => r.requests)) : NaN;
    const money = await runMoneyBench({
      apiUrl,
      apiPid,
      apiKey: issued.apiKey,
      merchantId: issued.merchantId,
      databaseUrl,
      railUrl,
      businessIds: ids,
      getOneCpuUsPerRequest: apiGetOneCpuUs,
      connections: CONNECTIONS,
      warmUpS: WARMUP_S,
      durationS: DURATION_S,
      mixedS: MIXED_S,
      measure: async (scenario, requests, options) => {
        const run = await measure(scenario, 'api', 1, { ...servers.api, requests }, options);
        runs.push(run);
        return run;
      },
      warm: (label, requests, options) => load(label, { ...servers.api, requests }, options.durationS, options.connections),
      verifyLedger: () => verifyLedger(databaseUrl, railsEnv),
      checkAborted,
      log,
    });
    // The rail's records go: the KYB worker, started below, would otherwise reconcile every event of
    // the runs above (its periodic job reads the rail's event list), and its memory is measured.
    await fetch(`${railUrl}/_sandbox/reset`, { method: 'POST', signal: AbortSignal.timeout(5_000) }).then((r) => r.arrayBuffer());
    log(
      `(money targets: create payment intent p99 < ${MONEY_TARGETS.createP99Ms} ms at 50 connections, < ${MONEY_TARGETS.createP99MsAt10} ms at 10; ` +
        `replay ≤ ${MONEY_TARGETS.replayCpuRatio}× GET one's CPU; withdrawals: ledger sound, no 5xx; mixed RSS growth < ${MONEY_TARGETS.mixedRssGrowthMb} MB)`,
    );
    targets.push(...money.targets);
    results.money = money;
  }

  // 8b. Collections: a burst of transfers onto businesses' own Naira accounts, beside the payment-intent funding path.
  if (PARTS.has('collections')) {
    log('');
    const collections = await runCollectionsBench({
      apiUrl,
      apiKey: issued.apiKey,
      merchantId: issued.merchantId,
      databaseUrl,
      railUrl,
      railApiKey,
      // Businesses the other parts leave alone (KYB uses the first 202).
      businessIds: ids.slice(-100),
      pids: { api: apiPid, rail: pidOf(rail) },
      processCpuS: (pid) => processTicks(pid) / CLK_TCK,
      verifyLedger: () => verifyLedger(databaseUrl, railsEnv),
      checkAborted,
      log,
    });
    // As after the money part: the KYB worker must not reconcile these runs' events.
    await fetch(`${railUrl}/_sandbox/reset`, { method: 'POST', signal: AbortSignal.timeout(5_000) }).then((r) => r.arrayBuffer());
    targets.push(...collections.targets);
    results.collections = collections;
  }

  // 8c. The dashboard: a login's CPU, and a setup read with a session against GET one with a key.
  if (PARTS.has('dashboard')) {
    log('');
    const dashboard = await runDashboardBench({
      apiUrl,
      apiKey: issued.apiKey,
      businessIds: ids,
      warmUpS: WARMUP_S,
      durationS: DURATION_S,
      connections: CONNECTIONS,
      // Each request carries its own credential (a key, a session cookie): none from the target.
      measure: async (scenario, requests, options) => {
        const run = await measure(scenario, 'api', 1, { ...servers.api, headers: {}, requests }, options);
        runs.push(run);
        return run;
      },
      warm: (label, requests, options) => load(label, { ...servers.api, headers: {}, requests }, options.durationS, options.connections),
      log,
    });
    targets.push(...dashboard.targets);
    results.dashboard = dashboard;
  }

  // 9. KYB: large submissions and GET onboarding (issue 3).
  if (PARTS.has('kyb')) {
    log('');
    const kyb = await runKybBench({
      apiUrl,
      apiPid,
      apiKey: issued.apiKey,
      databaseUrl,
      businessIds: ids.slice(0, 200),
      providerUrl,
      providerApiKey,
      log,
    });
    log(`(KYB targets: RSS growth < ${KYB_TARGETS.rssGrowthFactor}× the body; concurrent peak < ${KYB_TARGETS.concurrentPeakMb} MB)`);
    targets.push(...kyb.targets);
    results.kyb = kyb;
  }

  // 10. KYB worker: memory while forwarding one 45 MB application, the worker's only work.
  if (PARTS.has('kyb-worker')) {
    log('');
    log(`worker node flags: ${workerNodeArgs.length > 0 ? workerNodeArgs.join(' ') : 'none'}`);
    const [warmUpBusinessId, measuredBusinessId] = ids.slice(200, 202);
    if (measuredBusinessId === undefined) throw new Error('the KYB worker part needs at least 202 seeded businesses');
    let worker: Started | undefined;
    const kybWorker = await runKybWorkerBench({
      apiUrl,
      apiKey: issued.apiKey,
      databaseUrl,
      providerUrl,
      businessIds: [warmUpBusinessId, measuredBusinessId],
      startWorker: async () => {
        worker = startChild('worker', WORKER_MAIN, workerEnv, workerNodeArgs, { watchStdout: ['worker started'], exitIsMeasured: true });
        started.push(worker);
        await waitPrinted(worker, 'worker started');
        const child = worker;
        return { pid: pidOf(child), exited: child.exited, outputTail: () => `${child.stdoutTail()}${child.stderrTail()}` };
      },
      checkAborted,
      log,
    });
    if (worker) await stopChild(worker.child);
    log(
      `(KYB worker target: RSS growth < ${KYB_WORKER_TARGETS.growthPerLargestDocument}× the largest document, forwarded within ${KYB_WORKER_TARGETS.forwardTimeoutS} s)`,
    );
    targets.push(...kybWorker.targets);
    results.kybWorker = kybWorker;
  }

  // 11. International payment intents: the settlement pipeline with one then two workers, then GET one.
  let international: InternationalBenchResult | undefined;
  if (PARTS.has('international')) {
    log('');
    log(
      `international: ${INTL_INTENTS} intents per pipeline run, worker processes per run ${INTL_WORKERS.join(', ')}; ` +
        `worker node flags ${workerNodeArgs.length > 0 ? workerNodeArgs.join(' ') : 'none'}, worker DB pool ${WORKER_DB_POOL_SIZE}; sandbox settlement step ${SETTLEMENT_STEP_MS} ms`,
    );
    let workers: Started[] = [];
    const stopWorkers = async () => {
      await Promise.all(workers.map((w) => stopChild(w.child)));
      workers = [];
    };
    international = await runInternationalBench({
      apiUrl,
      refUrl,
      apiKey: issued.apiKey,
      merchantId: issued.merchantId,
      databaseUrl,
      pids: { api: apiPid, bridgeRail: pidOf(bridgeRail), payoutRail: pidOf(payoutRail) },
      bridgeRailUrl: crossBorder.bridge.url,
      payoutRailUrl: crossBorder.payout.url,
      intents: INTL_INTENTS,
      workerCounts: INTL_WORKERS,
      creationConcurrency: INTL_CREATION_CONCURRENCY,
      callbacks: INTL_CALLBACKS,
      rounds: ROUNDS,
      warmUpS: WARMUP_S,
      startWorkers: async (count) => {
        const spawned = Array.from({ length: count }, (_, i) =>
          startChild(`worker ${i + 1}`, WORKER_MAIN, workerEnv, workerNodeArgs, {
            watchStdout: ['worker started'],
            countStdout: Object.values(WORKER_LOG_COUNTS),
            exitIsMeasured: true,
          }),
        );
        workers.push(...spawned);
        started.push(...spawned);
        await Promise.all(spawned.map((w) => waitPrinted(w, 'worker started')));
        return spawned.map((w) => ({
          pid: pidOf(w),
          exited: w.exited,
          outputTail: () => `${w.stdoutTail()}${w.stderrTail()}`,
          count: w.count,
          lastCounted: w.lastCounted,
        }));
      },
      stopWorkers,
      measure: async (server, round, requests) => {
        const run = await measure('intl-get-one', server, round, { ...servers[server], requests });
        runs.push(run);
        return run;
      },
      warm: (server, requests, seconds) => load(`warm-up ${server} GET one international intent`, { ...servers[server], requests }, seconds),
      verifyLedger: () => verifyLedger(databaseUrl, railsEnv),
      processCpuS: (pid) => processTicks(pid) / CLK_TCK,
      machineBusyS: () => machineTicks().busy / CLK_TCK,
      clockTicks: CLK_TCK,
      checkAborted,
      log,
    });
    log(
      `(international targets: GET one ≥ ${INTERNATIONAL_TARGETS.getOneRatio}× the reference's req/s; every intent settled and ledger:verify ok after each run; ` +
        `two workers ≥ ${INTERNATIONAL_TARGETS.twoWorkersSpeedup}× one worker's intents/s)`,
    );
    targets.push(...international.targets);
    results.international = international;
  }

  // 12. The vault: a burst of deposits credited by the worker, then transfers out from racing clients.
  if (PARTS.has('vault') && vaultChains) {
    log('');
    let worker: Started | undefined;
    const vault = await runVaultBench({
      apiUrl,
      apiKey: issued.apiKey,
      merchantId: issued.merchantId,
      databaseUrl,
      faucetUrl: vaultChains.faucetUrl,
      faucetApiKey: vaultChains.faucetApiKey,
      rpcUrls: vaultChains.rpcUrls,
      confirmations: VAULT_CONFIRMATIONS,
      apiPid,
      startWorker: async () => {
        worker = startChild('worker', WORKER_MAIN, vaultWorkerEnv, workerNodeArgs, { watchStdout: ['worker started'] });
        started.push(worker);
        await waitPrinted(worker, 'worker started');
        return pidOf(worker);
      },
      stopWorker: async () => {
        if (worker) await stopChild(worker.child);
        worker = undefined;
      },
      processCpuS: (pid) => processTicks(pid) / CLK_TCK,
      verifyLedger: () => verifyLedger(databaseUrl, railsEnv),
      checkAborted,
      log,
    });
    targets.push(...vault.targets);
    results.vault = vault;
  }

  // 13. Report.
  if (verifyMs.length > 0) {
    const slowest = Math.max(...verifyMs);
    targets.push({
      name: `ledger:verify wall time (whole command, ${BUSINESSES.toLocaleString('en')} businesses)`,
      target: `< ${TARGETS.ledgerVerifyS} s`,
      measured: verifyMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', '),
      pass: slowest < TARGETS.ledgerVerifyS * 1000,
    });
    results.ledgerVerify = { wallMs: verifyMs };
  }
  const summaries = summarise(runs);
  printReport(summaries, targets, runs);

  const finishedAt = new Date();
  mkdirSync(join(ROOT_DIR, 'bench', 'results'), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        machine: { cpus: cpus().length, model: cpus()[0]?.model, loadAverageAtEnd: loadavg(), node: process.version, clockTicks: CLK_TCK },
        settings: {
          parts: [...PARTS],
          businesses: BUSINESSES,
          connections: CONNECTIONS,
          durationS: DURATION_S,
          warmupS: WARMUP_S,
          getOneRounds: ROUNDS,
          mixedS: MIXED_S,
          sandboxPayoutDelayMs: PAYOUT_DELAY_MS,
          sandboxSettlementStepMs: SETTLEMENT_STEP_MS,
          apiLogLevel: APP_LOG_LEVEL,
          apiLogDestination: '/dev/null',
          dbPoolSize: DB_POOL_SIZE,
          workerDbPoolSize: WORKER_DB_POOL_SIZE,
          apiNodeArgs: API_NODE_ARGS,
          workerNodeArgs,
          internationalIntents: INTL_INTENTS,
          internationalWorkers: INTL_WORKERS,
          internationalCreationConcurrency: INTL_CREATION_CONCURRENCY,
          internationalRailCallbacks: INTL_CALLBACKS,
        },
        summaries,
        ...results,
        targets,
        runs,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nresults written to ${RESULTS_FILE}`);
  const failed = targets.filter((t) => !t.pass).length;
  return failed > 0 && process.env.BENCH_STRICT === '1' ? 1 : 0;
}
// ---------------------------------------------------------------------------------------------
// Setup helpers
// ---------------------------------------------------------------------------------------------

interface IssuedKey {
  merchantId: string;
  apiKeyId: string;
  apiKey: string;
}

async function createMerchant(databaseUrl: string): Promise<IssuedKey> {
  const stdout = await new Promise<string>((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [MERCHANT_CLI, 'create', '--name', 'Bench'],
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
async function verifyLedger(databaseUrl: string, railsEnv: Record<string, string>): Promise<{ code: number | null; report: unknown }> {
  const began = performance.now();
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [LEDGER_CLI],
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
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, statement_timeout: 120_000 });
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

/** Fails the run unless the reference runs the API's exact statement and answers the same JSON. */
async function checkEquivalence(apiUrl: string, refUrl: string, apiKey: string, merchantId: string, id: string): Promise<void> {
  // findOwned reads through the pool alone: the repository's DataSource is not needed here.
  const sent = await statementSent((pool) => new PoboBusinessesRepository(pool, undefined as never).findOwned(merchantId, id));
  if (!isDeepStrictEqual(sent, findOwnedQuery(merchantId, id))) {
    throw new Error('the reference server no longer sends the statement PoboBusinessesRepository.findOwned sends');
  }

  const [fromApi, fromRef] = await Promise.all([
    getJson(`${apiUrl}${POBO_USERS_PATH}/${id}`, { 'x-api-key': apiKey }),
    getJson(`${refUrl}${POBO_USERS_PATH}/${id}`, {}),
  ]);
  if (fromApi.status !== 200 || fromRef.status !== 200) {
    throw new Error(`GET one answered ${fromApi.status} (API) and ${fromRef.status} (reference): ${JSON.stringify(fromApi.body)}`);
  }
  if (!isDeepStrictEqual(fromApi.body, fromRef.body)) {
    throw new Error(`the API and the reference answer different JSON:\n${JSON.stringify(fromApi.body)}\n${JSON.stringify(fromRef.body)}`);
  }
  const list = await getJson(`${apiUrl}${POBO_USERS_PATH}`, { 'x-api-key': apiKey });
  const items = (list.body as { response?: unknown[] }).response;
  if (list.status !== 200 || !Array.isArray(items) || items.length === 0) throw new Error(`list answered ${list.status}`);
  log(`checked: same SQL statement and identical JSON for GET one (${fromApi.bytes} bytes); list first page has ${items.length} items (${list.bytes} bytes)`);
}

async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown; bytes: number }> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) };
}

/**
 * The node flags production starts the worker with: those of `npm run start:worker`
 * (`node [flags] dist/src/worker.js`), so that the bench measures the worker as it runs.
 */
function startWorkerNodeFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const match = /^node((?:\s+-\S+)*)\s+dist\/src\/worker\.js\s*$/.exec(scripts['start:worker'] ?? '');
  if (match) return match[1].split(/\s+/).filter(Boolean);
  log(`warning: package.json start:worker is not "node [flags] dist/src/worker.js" (${scripts['start:worker']}): the worker starts without its flags`);
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
async function removeQueueKeys(): Promise<void> {
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

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

/** Children get only what they need, so a stray variable in the caller's shell cannot skew a run. */
function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name]) env[name] = process.env[name];
  return { ...env, ...vars };
}

function startChild(
  name: string,
  script: string,
  vars: Record<string, string>,
  nodeArgs: string[] = [],
  options: { watchStdout?: string[]; countStdout?: readonly string[]; exitIsMeasured?: boolean } = {},
): Started {
  // node directly (no npm wrapper), so the pid is the server's and /proc figures are its own.
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT_DIR,
    env: childEnv(vars),
    stdio: ['ignore', options.watchStdout || options.countStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  children.add(child);
  let tail = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4_000);
  });
  // stdout, when watched, is read as it comes (a full pipe would block the child): only a tail is
  // kept, and whether each watched text has appeared.
  let stdoutTail = '';
  const seen = new Set<string>();
  // Counted texts are looked for in whole lines (the last, unfinished one waits for the next chunk).
  const counts = new Map<string, number>();
  const lastCounted = new Map<string, string>();
  let partialLine = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const recent = stdoutTail.slice(-200) + chunk;
    for (const text of options.watchStdout ?? []) if (recent.includes(text)) seen.add(text);
    stdoutTail = (stdoutTail + chunk).slice(-4_000);
    if (options.countStdout) {
      const lines = (partialLine + chunk).split('\n');
      partialLine = lines.pop() ?? '';
      for (const line of lines) {
        for (const text of options.countStdout) {
          if (!line.includes(text)) continue;
          counts.set(text, (counts.get(text) ?? 0) + 1);
          lastCounted.set(text, line.slice(0, 500));
        }
      }
    }
  });
  let exit: string | undefined;
  child.once('exit', (code, signal) => {
    children.delete(child);
    exit = signal ?? `code ${code}`;
    // A measured child's crash is a result (its measurement fails), not a reason to stop the run.
    if (!abort.signal.aborted && !stopping.has(child) && !options.exitIsMeasured) {
      stopEverything(`${name} exited unexpectedly (${exit})${tail ? `:\n${tail}` : ''}`);
    }
  });
  return {
    name,
    child,
    stderrTail: () => tail,
    printed: (text) => seen.has(text),
    stdoutTail: () => stdoutTail,
    exited: () => exit,
    count: (text) => counts.get(text) ?? 0,
    lastCounted: (text) => lastCounted.get(text),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(5_000, false).then(() => false)])) return;
  child.kill('SIGKILL');
  await Promise.race([exited, sleep(2_000, false)]);
}

async function waitReady(server: Started, url: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    checkAborted();
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited before it was ready:\n${server.stderrTail()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${server.name} not ready after 30s:\n${server.stderrTail()}`);
    await sleep(200);
  }
}

/** Waits for a child to print `text` on stdout (one of the texts startChild was asked to watch for). */
async function waitPrinted(server: Started, text: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    checkAborted();
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited before it printed '${text}':\n${server.stderrTail()}`);
    if (server.printed(text)) return;
    if (Date.now() > until) throw new Error(`${server.name} did not print '${text}' within 30s:\n${server.stdoutTail()}${server.stderrTail()}`);
    await sleep(50);
  }
}

function pidOf(server: Started): number {
  if (server.child.pid === undefined) throw new Error(`${server.name} has no pid`);
  return server.child.pid;
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolvePromise(address.port) : reject(new Error('no port'))));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Load and measurement
// ---------------------------------------------------------------------------------------------

interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  requests: autocannon.Request[];
}

async function load(label: string, target: LoadTarget, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  checkAborted();
  const instance = autocannon({
    url: target.url,
    connections,
    duration: seconds,
    timeout: 10,
    headers: target.headers,
    requests: target.requests,
    title: label,
  });
  currentLoad = instance;
  const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
  try {
    const result = await instance;
    checkAborted();
    return result;
  } finally {
    clearTimeout(guard);
    currentLoad = undefined;
  }
}

async function measure(
  scenario: Scenario,
  server: ServerName,
  round: number,
  target: LoadTarget & { pid: number },
  { connections = CONNECTIONS, durationS = DURATION_S }: { connections?: number; durationS?: number } = {},
): Promise<Measurement> {
  await sleep(500);
  const railTicks = () => (railPid === undefined ? 0 : processTicks(railPid));
  const before = { server: processTicks(target.pid), rail: railTicks(), self: process.cpuUsage(), machine: machineTicks(), at: process.hrtime.bigint() };
  const result = await load(`${server} ${scenario} round ${round}`, target, durationS, connections);
  const after = {
    server: processTicks(target.pid),
    rail: railTicks(),
    self: process.cpuUsage(before.self),
    machine: machineTicks(),
    at: process.hrtime.bigint(),
  };

  const wallS = Number(after.at - before.at) / 1e9;
  const serverCpuS = (after.server - before.server) / CLK_TCK;
  const railCpuS = (after.rail - before.rail) / CLK_TCK;
  const selfCpuS = (after.self.user + after.self.system) / 1e6;
  const machineBusyS = (after.machine.busy - before.machine.busy) / CLK_TCK;
  const requests = result.requests.total;
  const measurement: Measurement = {
    scenario,
    server,
    round,
    connections,
    requests,
    durationS: result.duration,
    rps: requests / result.duration,
    latencyMs: {
      mean: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    cpuUsPerRequest: requests > 0 ? (serverCpuS * 1e6) / requests : NaN,
    serverCores: serverCpuS / wallS,
    loadGeneratorCores: selfCpuS / wallS,
    railCores: railCpuS / wallS,
    otherCores: Math.max(0, machineBusyS - serverCpuS - selfCpuS - railCpuS) / wallS,
  };
  log(
    `${pad(`${server} ${scenario} #${round}`, 28)} ${fmt(measurement.rps, 0).padStart(7)} req/s  p50 ${fmt(measurement.latencyMs.p50, 1)} ms  p99 ${fmt(measurement.latencyMs.p99, 1)} ms  ` +
      `${fmt(measurement.cpuUsPerRequest, 0)} µs CPU/req  cores: server ${measurement.serverCores.toFixed(2)}, autocannon ${measurement.loadGeneratorCores.toFixed(2)}, ` +
      `${measurement.railCores >= 0.005 ? `rail ${measurement.railCores.toFixed(2)}, ` : ''}other ${measurement.otherCores.toFixed(2)}` +
      (measurement.non2xx || measurement.errors ? `  non-2xx ${measurement.non2xx}, errors ${measurement.errors}` : ''),
  );
  return measurement;
}

function summarise(runs: Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const run of runs) {
    const key = `${run.scenario}/${run.server}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows = [...groups.values()].map((group) => {
    const requests = sum(group.map((r) => r.requests));
    return {
      scenario: group[0].scenario,
      server: group[0].server,
      rounds: group.length,
      rps: mean(group.map((r) => r.rps)),
      p50Ms: mean(group.map((r) => r.latencyMs.p50)),
      p99Ms: mean(group.map((r) => r.latencyMs.p99)),
      cpuUsPerRequest: sum(group.map((r) => r.cpuUsPerRequest * r.requests)) / requests,
      non2xx: sum(group.map((r) => r.non2xx)),
      errors: sum(group.map((r) => r.errors)),
    };
  });
  // The international intent's GET one against the reference's intent route; everything else against its business route.
  const refFor = (scenario: Scenario) =>
    rows.find((r) => r.scenario === (scenario === 'intl-get-one' ? 'intl-get-one' : 'get-one') && r.server === 'reference');
  return rows.map((r) => {
    const ref = refFor(r.scenario);
    return { ...r, rpsVsReference: ref ? r.rps / ref.rps : NaN, cpuVsReference: ref ? r.cpuUsPerRequest / ref.cpuUsPerRequest : NaN };
  });
}

function printReport(summaries: Summary[], targets: Target[], runs: Measurement[]): void {
  const header = ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ ref', 'CPU µs/req', 'CPU ÷ ref', 'non-2xx'];
  const body = summaries.map((s) => [
    s.scenario,
    s.server,
    fmt(s.rps, 0),
    fmt(s.p50Ms, 1),
    fmt(s.p99Ms, 1),
    Number.isFinite(s.rpsVsReference) ? `${s.rpsVsReference.toFixed(2)}×` : '—',
    fmt(s.cpuUsPerRequest, 0),
    Number.isFinite(s.cpuVsReference) ? `${s.cpuVsReference.toFixed(2)}×` : '—',
    String(s.non2xx + s.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log('');
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) log(line(row));
  log(
    '"÷ ref" divides by the reference server\'s GET one (same SQL, same JSON; plain Fastify + pg): its intent route for intl-get-one, its business route otherwise.',
  );
  for (const scenario of ['get-one', 'intl-get-one'] as const) {
    const ref = summaries.find((s) => s.scenario === scenario && s.server === 'reference');
    const app = summaries.find((s) => s.scenario === scenario && s.server === 'api');
    if (ref && app)
      log(`${scenario} from CPU time (ref µs/req ÷ API µs/req, steadier on a busy machine): ${(ref.cpuUsPerRequest / app.cpuUsPerRequest).toFixed(2)}×`);
  }
  const others = runs.map((r) => r.otherCores);
  if (others.length > 0)
    log(`other load on the machine during runs (PostgreSQL + everything else): ${Math.min(...others).toFixed(2)}–${Math.max(...others).toFixed(2)} cores`);
  log('');
  if (targets.length === 0) return;
  const nameWidth = Math.max(...targets.map((t) => t.name.length));
  const targetWidth = Math.max(...targets.map((t) => t.target.length));
  for (const t of targets) log(`${t.pass ? 'PASS' : 'FAIL'}  ${t.name.padEnd(nameWidth)}  ${t.target.padEnd(targetWidth)}  measured ${t.measured}`);
}

// ---------------------------------------------------------------------------------------------
// /proc readers
// ---------------------------------------------------------------------------------------------

/** utime + stime of a process (all its threads), in clock ticks. */
function processTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm)": state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function machineTicks(): { busy: number } {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq + (steal || 0) };
}

function memoryField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]);
}

function rssMb(pid: number): number {
  return memoryField(pid, 'VmRSS') / 1024;
}

function clockTicks(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

// ---------------------------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------------------------

function checkAborted(): void {
  abort.signal.throwIfAborted();
}

function listEnv(name: string, fallback: string): string[] {
  return (process.env[name] || fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `BENCH_PARTS=international,money` or `node dist/bench/run.js international money` (the arguments win); all parts when neither is given. */
function selectedParts(): Set<Part> {
  const asked = process.argv.slice(2).length > 0 ? process.argv.slice(2).flatMap((arg) => arg.split(',')) : listEnv('BENCH_PARTS', ALL_PARTS.join(','));
  const unknown = asked.filter((part) => !(ALL_PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`unknown bench part(s) ${unknown.join(', ')}: the parts are ${ALL_PARTS.join(', ')}`);
  const workers = (process.env.BENCH_INTL_WORKERS || '1,2').split(',').map(Number);
  if (workers.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_INTL_WORKERS must list worker counts (e.g. 1,2), not ${process.env.BENCH_INTL_WORKERS}`);
  return new Set(ALL_PARTS.filter((part) => asked.includes(part)));
}

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function mean(values: number[]): number {
  return sum(values) / values.length;
}

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}

function log(message: string): void {
  process.stdout.write(`${message}\n`);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const reason = abort.signal.aborted ? (abort.signal.reason as Error).message : undefined;
    process.stderr.write(`bench failed: ${reason ?? (err instanceof Error ? err.stack : String(err))}\n`);
    process.exit(1);
  },
);
