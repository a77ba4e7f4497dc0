/**
 * Collections part of `npm run bench`: how fast transfers that land on the bank rail become
 * credited money, for a business's own Naira account and, beside it, for payment intents.
 *
 * 1. Setup (not measured): `COLLECTION_BUSINESSES` (100) of the seeded businesses get their own
 *    account at the sandbox bank, opened through the rail's API under the business id as the Naira
 *    module opens it, and written to the business and `naira_accounts` as provisioning writes
 *    them; `TRANSFERS` (1,000) payment intents are created through the API.
 * 2. Collections: 1,000 inbound transfers, ten per business account, are sent to the rail in a
 *    burst (`BURST_CONCURRENCY` at a time), as senders at other banks would; the rail calls the API
 *    back for each. Measured: from the first send to the last collection credited (the database
 *    is polled), as collections/s, and the API's CPU per collection.
 * 3. The payment-intent funding path the same way: one transfer of the exact amount into each
 *    intent's account; measured up to the last intent `funds_received`.
 * 4. `ledger:verify`. Each run must credit every transfer exactly once.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { apiClient, Target } from './money';
import { PAYMENT_INTENTS_PATH } from '../src/modules/payment-intents/payment-intents.routes';
import type { BenchPart } from './deployment';
import { CLK_TCK, processTicks } from './measure';
import { checkAborted, log } from './processes';

const COLLECTION_BUSINESSES = 100;
const TRANSFERS = 1_000;
const BURST_CONCURRENCY = 50;
const SETUP_CONCURRENCY = 16;
const POLL_MS = 25;
const RUN_TIMEOUT_MS = 120_000;
/** Kobo per transfer: ₦1,000.00. */
const AMOUNT_KOBO = 100_000;

export interface CollectionsBenchInput {
  apiUrl: string;
  apiKey: string;
  merchantId: string;
  databaseUrl: string;
  railUrl: string;
  railApiKey: string;
  /** Seeded businesses of the merchant; the first `COLLECTION_BUSINESSES` get accounts. */
  businessIds: string[];
  pids: { api: number; rail: number };
  processCpuS: (pid: number) => number;
  verifyLedger: () => Promise<{ code: number | null; report: unknown }>;
  checkAborted: () => void;
  log: (message: string) => void;
}

export interface CreditRun {
  transfers: number;
  ms: number;
  perS: number;
  /** API CPU (user + system) per credited transfer, µs. */
  apiCpuUsPerTransfer: number;
  railCpuUsPerTransfer: number;
  /** What the database holds once the run ended: each transfer credited once. */
  credited: number;
}

export interface CollectionsBenchResult {
  collections: CreditRun;
  paymentIntentFunding: CreditRun;
  ledgerVerify: { code: number | null; ok: boolean };
  targets: Target[];
}

export async function runCollectionsBench(input: CollectionsBenchInput): Promise<CollectionsBenchResult> {
  const { log } = input;
  const db = new CountedClient({ connectionString: input.databaseUrl });
  await db.connect();
  try {
    const businesses = input.businessIds.slice(0, COLLECTION_BUSINESSES);
    if (businesses.length < COLLECTION_BUSINESSES) throw new Error(`collections: needs ${COLLECTION_BUSINESSES} seeded businesses`);
    const accounts = await inBatches(businesses, SETUP_CONCURRENCY, (businessId) => openAccount(input, db, businessId));
    log(`collections: ${accounts.length} business accounts opened at the sandbox bank`);

    const api = apiClient(input.apiUrl, input.apiKey);
    const intentAccounts = await inBatches(
      Array.from({ length: TRANSFERS }, (_, i) => i),
      SETUP_CONCURRENCY,
      async (i) => {
        const created = await api.post(
          PAYMENT_INTENTS_PATH,
          JSON.stringify({ merchantReference: `bench-collect-${i}`, amount: AMOUNT_KOBO / 100 }),
          `bench-collect-${i}-${randomBytes(6).toString('hex')}`,
        );
        const account = (created.json as { response?: { virtualAccount?: { accountNumber?: string } } } | undefined)?.response?.virtualAccount?.accountNumber;
        if (created.status !== 201 || !account) throw new Error(`collections: create payment intent answered ${created.status}: ${created.text}`);
        return account;
      },
    );
    log(`collections: ${intentAccounts.length} payment intents created`);
    input.checkAborted();

    const count = async (sql: string) => Number((await db.query<{ n: string }>(sql, [input.merchantId])).rows[0].n);
    const collections = await creditRun(
      input,
      Array.from({ length: TRANSFERS }, (_, i) => accounts[i % accounts.length]),
      () => count(`SELECT count(*) AS n FROM collections WHERE merchant_id = $1 AND status = 'credited'`),
    );
    log(
      `collections: ${TRANSFERS} transfers onto ${accounts.length} business accounts credited in ${collections.ms} ms: ${collections.perS.toFixed(0)} collections/s, ` +
        `API ${collections.apiCpuUsPerTransfer.toFixed(0)} µs CPU per collection (rail ${collections.railCpuUsPerTransfer.toFixed(0)} µs)`,
    );
    const funding = await creditRun(input, intentAccounts, () =>
      count(`SELECT count(*) AS n FROM payment_intents WHERE merchant_id = $1 AND status = 'funds_received'`),
    );
    log(
      `collections: beside it, ${TRANSFERS} payment intents funded in ${funding.ms} ms: ${funding.perS.toFixed(0)} fundings/s, ` +
        `API ${funding.apiCpuUsPerTransfer.toFixed(0)} µs CPU per funding (rail ${funding.railCpuUsPerTransfer.toFixed(0)} µs)`,
    );
    const verified = await input.verifyLedger();
    const ok = verified.code === 0 && (verified.report as { ok?: boolean } | undefined)?.ok === true;
    const credited = (await count(`SELECT count(*) AS n FROM balance_transactions WHERE merchant_id = $1 AND type = 'collection'`)) === TRANSFERS;
    return {
      collections,
      paymentIntentFunding: funding,
      ledgerVerify: { code: verified.code, ok },
      targets: [
        {
          name: 'collections burst (1,000 transfers, 100 accounts)',
          target: 'each credited once, ledger:verify ok',
          measured: `${collections.credited} credited, ${credited ? 'one' : 'NOT one'} balance transaction each, ledger:verify ${ok ? 'ok' : `failed (${verified.code})`}; ${collections.perS.toFixed(0)}/s vs ${funding.perS.toFixed(0)}/s funding intents`,
          pass: collections.credited === TRANSFERS && credited && ok,
        },
      ],
    };
  } finally {
    await db.end();
  }
}

/** Opens the business's account at the rail as the Naira module does, and records it as provisioning does. */
async function openAccount(input: CollectionsBenchInput, db: Client, businessId: string): Promise<string> {
  const response = await fetch(`${input.railUrl}/v1/virtual-accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.railApiKey}`, 'content-type': 'application/json', 'idempotency-key': businessId },
    body: JSON.stringify({ reference: businessId, account_name: `Bench ${businessId}`, currency: 'NGN', type: 'static' }),
    signal: AbortSignal.timeout(10_000),
  });
  const account = (await response.json()) as { id: string; account_number: string; account_name: string; bank_name: string; bank_code: string };
  if (response.status !== 201) throw new Error(`collections: the rail answered ${response.status} opening an account`);
  await db.query(
    `UPDATE pobo_businesses SET allow_naira_collection = true, naira_collection_status = 'active', naira_account_number = $2, naira_account_name = $3,
            naira_bank_name = $4, naira_bank_code = $5 WHERE id = $1`,
    [businessId, account.account_number, account.account_name, account.bank_name, account.bank_code],
  );
  await db.query(
    `INSERT INTO naira_accounts (business_id, provider_reference, account_number, account_name, bank_name, bank_code, attempts) VALUES ($1, $2, $3, $4, $5, $6, 1)
     ON CONFLICT (business_id) DO UPDATE SET provider_reference = $2, account_number = $3, account_name = $4, bank_name = $5, bank_code = $6`,
    [businessId, account.id, account.account_number, account.account_name, account.bank_name, account.bank_code],
  );
  return account.account_number;
}

/** One burst: a transfer into each of `accounts`, timed until `credited()` counts them all. */
async function creditRun(input: CollectionsBenchInput, accounts: string[], credited: () => Promise<number>): Promise<CreditRun> {
  const before = await credited();
  const cpu = { api: input.processCpuS(input.pids.api), rail: input.processCpuS(input.pids.rail) };
  const started = performance.now();
  await inBatches(accounts, BURST_CONCURRENCY, async (accountNumber) => {
    const response = await fetch(`${input.railUrl}/v1/simulations/inbound-transfers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${input.railApiKey}`,
        'content-type': 'application/json',
        'idempotency-key': `bench-${randomBytes(12).toString('hex')}`,
      },
      body: JSON.stringify({
        account_number: accountNumber,
        amount: AMOUNT_KOBO,
        sender_bank_name: 'Bench Bank',
        sender_account_number: '0123456789',
        sender_name: 'Bench Sender',
      }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`collections: the rail answered ${response.status} to a transfer`);
  });
  let now = before;
  const until = Date.now() + RUN_TIMEOUT_MS;
  while ((now = await credited()) - before < accounts.length) {
    input.checkAborted();
    if (Date.now() > until) throw new Error(`collections: ${now - before} of ${accounts.length} credited after ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const ms = Math.round(performance.now() - started);
  const usPer = (pid: number, from: number) => ((input.processCpuS(pid) - from) * 1e6) / accounts.length;
  return {
    transfers: accounts.length,
    ms,
    perS: (accounts.length * 1000) / ms,
    apiCpuUsPerTransfer: usPer(input.pids.api, cpu.api),
    railCpuUsPerTransfer: usPer(input.pids.rail, cpu.rail),
    credited: now - before,
  };
}

/** `run` over `items`, `concurrency` at a time, answers in order. */
export async function inBatches<T, R>(items: T[], concurrency: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index]);
      }
    }),
  );
  return results;
}

/** A burst of transfers onto businesses' own Naira accounts, beside the payment-intent funding path. */
export const runCollectionsPart: BenchPart = async (d) => {
  log('');
  const collections = await runCollectionsBench({
    apiUrl: d.servers.api.url,
    apiKey: d.apiKey,
    merchantId: d.merchantId,
    databaseUrl: d.databaseUrl,
    railUrl: d.rail.url,
    railApiKey: d.rail.apiKey,
    // Businesses the other parts leave alone (KYB uses the first 202).
    businessIds: d.businessIds.slice(-100),
    pids: { api: d.servers.api.pid, rail: d.rail.pid },
    processCpuS: (pid) => processTicks(pid) / CLK_TCK,
    verifyLedger: d.verifyLedger,
    checkAborted,
    log,
  });
  // As after the money part: the KYB worker must not reconcile these runs' events.
  await d.resetRail();
  return { targets: collections.targets, results: { collections } };
};
