/**
 * Vault part of `npm run bench`: the production build against the local chains in their staging
 * profile (chain ids, USDC and mint production accepts), with the real worker.
 *
 * 1. Setup (not measured): `VAULTS` (100) businesses created through the API (so the wallet thread
 *    derives their addresses), KYB-verified directly; the worker starts, and its first run starts
 *    its cursor on each chain at the head and learns every vault.
 * 2. Deposits: a gate (the bench holds `vault_chain_cursors` in ACCESS EXCLUSIVE mode, so the
 *    follower waits at its first read of a cursor), then `DEPOSITS` (1,000) faucet mints, ten per
 *    vault spread over the four chains, and `confirmations` more blocks on every chain. Measured:
 *    from the gate's release to the last deposit credited (the database is polled), as
 *    deposits/s, and the worker's CPU per deposit.
 * 3. Transfers out: `TRANSFERS` (500, five per vault) `POST /api/merchant/vault-transfers` from 50
 *    racing clients. Measured: from the first request to the last transfer `submitted` (signed,
 *    stored and broadcast by the worker; EVM gas top-ups included), as transfers/s, and the CPU of
 *    the API and the worker per transfer. Then the chains confirm them all and `ledger:verify`
 *    reconciles every vault with its address's token balance.
 */
import { randomBytes } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import type { Client } from 'pg';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { apiClient, Target } from './money';
import { inBatches } from './collections';
import { CHAIN_NAMES, type ChainName } from '../src/config/vault-chains.config';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart } from './deployment';
import { CLK_TCK, processTicks } from './measure';
import { checkAborted, log, pidOf, stopChild, Started } from './processes';
import { VAULT_CONFIRMATIONS } from './settings';
import { formatRoundTrips, roundTripSnapshot, roundTripsPer, type RoundTrips } from './round-trips';

const VAULTS = 100;
const DEPOSITS_PER_VAULT = 10;
const DEPOSITS = VAULTS * DEPOSITS_PER_VAULT;
const TRANSFERS_PER_VAULT = 5;
const TRANSFERS = VAULTS * TRANSFERS_PER_VAULT;
const CLIENTS = 50;
const SETUP_CONCURRENCY = 16;
/** Faucet mints at once: the faucet sends each chain's one after the other anyway. */
const MINT_CONCURRENCY = 32;
/** Micro-USDC per deposit (25 USDC), and per transfer (1 USDC: with the fee, well within each chain's deposits). */
const DEPOSIT_MICRO = 25_000_000n;
const TRANSFER_USDC = 1;
const POLL_MS = 25;
const RUN_TIMEOUT_MS = 180_000;

export const VAULT_TARGETS = { credited: DEPOSITS, transfers: TRANSFERS };

export interface VaultBenchInput {
  apiUrl: string;
  apiKey: string;
  merchantId: string;
  databaseUrl: string;
  faucetUrl: string;
  faucetApiKey: string;
  rpcUrls: Record<ChainName, string>;
  confirmations: number;
  apiPid: number;
  /** Starts the built worker and resolves with its pid and operator port once it has logged `worker started`. */
  startWorker: () => Promise<{ pid: number; opsUrl: string; stdoutTail: () => string }>;
  /** The API's operator port, for its statement count. */
  apiOpsUrl: string;
  stopWorker: () => Promise<void>;
  processCpuS: (pid: number) => number;
  verifyLedger: () => Promise<{ code: number | null; report: unknown }>;
  checkAborted: () => void;
  log: (message: string) => void;
}

export interface VaultBenchResult {
  deposits: { count: number; ms: number; perS: number; workerCpuUsPerDeposit: number; credited: number };
  transfers: {
    count: number;
    clients: number;
    created: number;
    createMs: number;
    ms: number;
    perS: number;
    apiCpuUsPerTransfer: number;
    workerCpuUsPerTransfer: number;
    confirmed: number;
    /** Statements (API and worker) and commits per transfer, from its request to its confirmation. */
    roundTrips: RoundTrips;
  };
  ledgerVerify: { code: number | null; ok: boolean };
  targets: Target[];
}

export async function runVaultBench(input: VaultBenchInput): Promise<VaultBenchResult> {
  const { log } = input;
  const db = new CountedClient({ connectionString: input.databaseUrl });
  await db.connect();
  try {
    const api = apiClient(input.apiUrl, input.apiKey);
    const ids = await inBatches(
      Array.from({ length: VAULTS }, (_, i) => i),
      SETUP_CONCURRENCY,
      async (i) => {
        const created = await api.post(
          POBO_USERS_PATH,
          JSON.stringify({ businessName: `Bench Vault ${i}`, email: `vault${i}@bench.example`, phoneNumber: '+2348012345678', country: 'NG' }),
        );
        const id = (created.json as { response?: { poboUserId?: string } } | undefined)?.response?.poboUserId;
        if (created.status !== 201 || !id) throw new Error(`vault: create business answered ${created.status}: ${created.text}`);
        return id;
      },
    );
    const { rows } = await db.query<{ id: string; evm_address: string; svm_address: string }>(
      `UPDATE pobo_businesses SET agreement_status = 'accepted', agreement_accepted_at = now(), kyb_status = 'verified', kyb_last_synced_at = now()
       WHERE id = ANY($1) RETURNING id, evm_address, svm_address`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, { id: row.id, evm: row.evm_address, svm: row.svm_address }]));
    const vaults = ids.map((id) => byId.get(id)!);
    log(`vault: ${vaults.length} verified businesses created through the API`);

    // The worker's first run starts each chain's cursor at the head (and learns the vaults); the burst lands after it.
    const { pid: workerPid, opsUrl: workerOpsUrl, stdoutTail: workerLog } = await input.startWorker();
    await until('the worker starts its cursors', async () => (await count(db, `SELECT count(*) AS n FROM vault_chain_cursors`)) === CHAIN_NAMES.length, input);
    const chainOf = (vault: number, n: number): ChainName => CHAIN_NAMES[(vault + n) % CHAIN_NAMES.length];
    const mints = vaults.flatMap((vault, i) =>
      Array.from({ length: DEPOSITS_PER_VAULT }, (_, n) => ({ chain: chainOf(i, n), to: chainOf(i, n) === 'solana' ? vault.svm : vault.evm })),
    );
    const credited = () => count(db, `SELECT count(*) AS n FROM vault_transactions WHERE direction = 'deposit' AND status = 'confirmed'`);
    const gate = new CountedClient({ connectionString: input.databaseUrl });
    await gate.connect();
    let depositCpu: number;
    let depositsStarted: number;
    try {
      await gate.query('BEGIN');
      await gate.query('LOCK TABLE vault_chain_cursors IN ACCESS EXCLUSIVE MODE');
      const mintStarted = performance.now();
      await inBatches(mints, MINT_CONCURRENCY, (mint) => faucetMint(input, mint.chain, mint.to));
      await mine(input, input.confirmations);
      const mintMs = Math.round(performance.now() - mintStarted);
      log(`vault: ${DEPOSITS} deposits minted across ${VAULTS} vaults in ${mintMs} ms behind the gate; ${input.confirmations} more blocks on each chain`);
      input.checkAborted();
      depositCpu = input.processCpuS(workerPid);
      depositsStarted = performance.now();
      await gate.query('COMMIT');
    } finally {
      await gate.end();
    }
    const creditedCount = await until(`${DEPOSITS} deposits credited`, credited, input, (n) => n >= DEPOSITS).catch(async (err: Error) => {
      const { rows: states } = await db.query(
        `SELECT chain, status, count(*)::int AS n FROM vault_transactions WHERE direction = 'deposit' GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      throw new Error(`${err.message}; deposits by chain and status: ${JSON.stringify(states)}`);
    });
    const depositMs = Math.round(performance.now() - depositsStarted);
    const deposits = {
      count: DEPOSITS,
      ms: depositMs,
      perS: (DEPOSITS * 1000) / depositMs,
      workerCpuUsPerDeposit: ((input.processCpuS(workerPid) - depositCpu) * 1e6) / DEPOSITS,
      credited: creditedCount,
    };
    log(
      `vault: ${DEPOSITS} deposits credited in ${depositMs} ms from the gate's release: ${deposits.perS.toFixed(0)} deposits/s, ` +
        `worker ${deposits.workerCpuUsPerDeposit.toFixed(0)} µs CPU per deposit`,
    );

    // Transfers out: five per vault, one chain each, to one recipient per chain.
    const recipients: Record<ChainName, string> = {
      ethereum: privateKeyToAccount(generatePrivateKey()).address,
      polygon: privateKeyToAccount(generatePrivateKey()).address,
      base: privateKeyToAccount(generatePrivateKey()).address,
      solana: (await generateKeyPairSigner()).address,
    };
    const orders = vaults.flatMap((vault, i) =>
      Array.from({ length: TRANSFERS_PER_VAULT }, (_, n) => ({ poboUserId: vault.id, chain: chainOf(i, n), reference: `bench-vault-${i}-${n}` })),
    );
    const submitted = () => count(db, `SELECT count(*) AS n FROM vault_transfers WHERE status IN ('submitted', 'confirmed', 'failed')`);
    const opsUrls = [input.apiOpsUrl, workerOpsUrl];
    const tripsBefore = await roundTripSnapshot(db, opsUrls);
    const cpu = { api: input.processCpuS(input.apiPid), worker: input.processCpuS(workerPid) };
    const transfersStarted = performance.now();
    const answers = await inBatches(orders, CLIENTS, async (order) => {
      const body = {
        poboUserId: order.poboUserId,
        chain: order.chain,
        asset: 'USDC',
        amount: TRANSFER_USDC,
        toAddress: recipients[order.chain],
        merchantReference: order.reference,
      };
      const answer = await api.post('/api/merchant/vault-transfers', JSON.stringify(body), `${order.reference}-${randomBytes(6).toString('hex')}`);
      if (answer.status !== 201) throw new Error(`vault: POST vault-transfers answered ${answer.status}: ${answer.text}`);
      return answer.status;
    });
    const createMs = Math.round(performance.now() - transfersStarted);
    await until(`${TRANSFERS} transfers submitted`, submitted, input, (n) => n >= TRANSFERS);
    const transferMs = Math.round(performance.now() - transfersStarted);
    const usPer = (pid: number, from: number) => ((input.processCpuS(pid) - from) * 1e6) / TRANSFERS;
    const transfers = {
      count: TRANSFERS,
      clients: CLIENTS,
      created: answers.length,
      createMs,
      ms: transferMs,
      perS: (TRANSFERS * 1000) / transferMs,
      apiCpuUsPerTransfer: usPer(input.apiPid, cpu.api),
      workerCpuUsPerTransfer: usPer(workerPid, cpu.worker),
      confirmed: 0,
    };
    log(
      `vault: ${TRANSFERS} transfers from ${CLIENTS} clients: all answered 201 in ${createMs} ms, all submitted in ${transferMs} ms: ${transfers.perS.toFixed(0)} transfers/s, ` +
        `API ${transfers.apiCpuUsPerTransfer.toFixed(0)} µs + worker ${transfers.workerCpuUsPerTransfer.toFixed(0)} µs CPU per transfer (signing included)`,
    );

    // Confirmations for every transfer, then the reconciliation of each vault with its chain.
    await mine(input, input.confirmations);
    const confirmedCount = () => count(db, `SELECT count(*) AS n FROM vault_transfers WHERE status = 'confirmed'`);
    transfers.confirmed = await until(
      `${TRANSFERS} transfers confirmed`,
      confirmedCount,
      input,
      (n) => n >= TRANSFERS,
      async () => mine(input, 1),
    ).catch(async (err: Error) => {
      const { rows: states } = await db.query(
        `SELECT chain, status, count(*)::int AS n, min(updated_at) AS oldest FROM vault_transfers GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      throw new Error(`${err.message}; transfers by chain and status: ${JSON.stringify(states)}; the worker's last lines:\n${workerLog().slice(-2_000)}`);
    });
    // Per transfer, from its request to its confirmation (the follower's reads of the chains meanwhile included).
    const roundTripsPerTransfer = roundTripsPer(tripsBefore, await roundTripSnapshot(db, opsUrls, tripsBefore), TRANSFERS);
    log(`vault: per transfer ${formatRoundTrips(roundTripsPerTransfer)}`);
    await input.stopWorker();
    const verified = await input.verifyLedger();
    const ok = verified.code === 0 && (verified.report as { ok?: boolean } | undefined)?.ok === true;
    if (!ok) log(`vault: ledger:verify exit ${verified.code} ${JSON.stringify(verified.report)}`);
    return {
      deposits,
      transfers: { ...transfers, roundTrips: roundTripsPerTransfer },
      ledgerVerify: { code: verified.code, ok },
      targets: [
        {
          name: `vault deposits burst (${DEPOSITS.toLocaleString('en')} deposits, ${VAULTS} vaults, 4 chains)`,
          target: 'each credited once',
          measured: `${creditedCount} credited; ${deposits.perS.toFixed(0)}/s, worker ${deposits.workerCpuUsPerDeposit.toFixed(0)} µs CPU each`,
          pass: creditedCount === DEPOSITS,
        },
        {
          name: `vault transfers out (${TRANSFERS} from ${CLIENTS} clients)`,
          target: 'each confirmed once, ledger:verify ok (vaults = chains)',
          measured: `${transfers.confirmed} confirmed, ledger:verify ${ok ? 'ok' : `failed (${verified.code})`}; ${transfers.perS.toFixed(0)}/s submitted`,
          pass: transfers.confirmed === TRANSFERS && ok,
        },
      ],
    };
  } finally {
    await db.end();
  }
}

async function count(db: Client, sql: string): Promise<number> {
  return Number((await db.query<{ n: string }>(sql)).rows[0].n);
}

async function faucetMint(input: VaultBenchInput, chain: ChainName, to: string): Promise<void> {
  const response = await fetch(`${input.faucetUrl}/v1/${chain}/mint`, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.faucetApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to, amount: String(DEPOSIT_MICRO) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`vault: the faucet answered ${response.status} minting on ${chain}: ${text}`);
}

/** `blocks` new blocks on every chain (slots on Solana), through the local nodes' own methods. */
async function mine(input: VaultBenchInput, blocks: number): Promise<void> {
  await Promise.all(
    CHAIN_NAMES.map(async (chain) => {
      const request = chain === 'solana' ? { method: 'sandbox_mine', params: [blocks] } : { method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`] };
      const response = await fetch(input.rpcUrls[chain], {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...request }),
        signal: AbortSignal.timeout(10_000),
      });
      const answer = (await response.json()) as { error?: unknown };
      if (answer.error) throw new Error(`vault: mining on ${chain} failed: ${JSON.stringify(answer.error)}`);
    }),
  );
}

/** Polls `read` until `done` holds (true by default); between polls, `meanwhile` (e.g. a block). */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  input: VaultBenchInput,
  done: (value: T) => boolean = (value) => value === (true as T),
  meanwhile?: () => Promise<void>,
): Promise<T> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    input.checkAborted();
    if (Date.now() > deadline) throw new Error(`vault: timed out waiting until ${what} (last: ${String(value)})`);
    await meanwhile?.();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A burst of deposits credited by the worker, then transfers out from racing clients, on the local chains. */
export const runVaultPart: BenchPart = async (d) => {
  if (!d.chains) throw new Error("the vault part runs on the deployment's local chains");
  log('');
  let worker: Started | undefined;
  const vault = await runVaultBench({
    apiUrl: d.servers.api.url,
    apiKey: d.apiKey,
    merchantId: d.merchantId,
    databaseUrl: d.databaseUrl,
    faucetUrl: d.chains.faucetUrl,
    faucetApiKey: d.chains.faucetApiKey,
    rpcUrls: d.chains.rpcUrls,
    confirmations: VAULT_CONFIRMATIONS,
    apiPid: d.servers.api.pid,
    apiOpsUrl: d.servers.api.opsUrl!,
    startWorker: async () => {
      const started = await d.startWorker('worker', { chains: true });
      worker = started;
      return { pid: pidOf(started), opsUrl: started.opsUrl, stdoutTail: started.stdoutTail };
    },
    stopWorker: async () => {
      if (worker) await stopChild(worker.child);
      worker = undefined;
    },
    processCpuS: (pid) => processTicks(pid) / CLK_TCK,
    verifyLedger: d.verifyLedger,
    checkAborted,
    log,
  });
  return { targets: vault.targets, results: { vault } };
};
