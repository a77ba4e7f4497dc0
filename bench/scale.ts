/**
 * The scale part: whether what a merchant's request costs stays flat as its data grows. A merchant
 * of its own gets 10,000 businesses, then 100,000, then 1,000,000 (`BENCH_SCALE_SIZES`), and at each
 * size as many confirmed payments in its ledger (two entries, a balance transaction and its 15
 * minutes' sums each, as `seedDashboardMerchant` posts them: millions of entries at the largest).
 * At each size: GET one business, the list's first page, create business and create payment intent,
 * the API's CPU per request; the target is each within 1.2× of the smallest size's. Then
 * `ledger:verify --full` over the largest ledger, start to exit; then `SCALE_NEW_PAYMENTS` more
 * payments and `ledger:verify`, which must read those and nothing older (a count, so the target
 * does not depend on the machine; both times reported).
 */
import type autocannon from 'autocannon';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart } from './deployment';
import { createBusinesses } from './core';
import { seedLedgerPayments } from './ledger-seed';
import { createPaymentIntents } from './money';
import type { Target } from './money';
import { log } from './processes';
import { ID_SAMPLE, SCALE_SIZES, WARMUP_S } from './settings';

export const SCALE_TARGETS = {
  /** CPU µs per request at a size ÷ at the smallest size. */
  flat: 1.2,
};

/** The payments posted between the full run and the incremental one. */
const SCALE_NEW_PAYMENTS = 1_000;

export type ScaleScenario = 'scale-get-one' | 'scale-list' | 'scale-create' | 'scale-pi-create';

const SCENARIOS: ScaleScenario[] = ['scale-get-one', 'scale-list', 'scale-create', 'scale-pi-create'];
/** Wallet indices and addresses of the scale merchant's businesses start past everything else's. */
const WALLET_OFFSET = 50_000_000;

export interface ScaleResult {
  sizes: number[];
  /** CPU µs per request of each scenario at each size, in the order of `sizes`. */
  cpuUsPerRequest: Record<ScaleScenario, number[]>;
  seedS: number[];
  ledgerEntries: number;
  ledgerVerifyFullMs: number;
  ledgerVerifyIncrementalMs: number;
  /** Entries and balance transactions the incremental run read. */
  ledgerVerifyIncrementalChecked: { ledgerEntries: number; balanceTransactions: number } | null;
}

export const runScalePart: BenchPart = async (d) => {
  log('');
  const { merchantId, apiKey } = await d.createMerchant('Bench Scale');
  const headers = { 'x-api-key': apiKey };
  const cpu = Object.fromEntries(SCENARIOS.map((scenario) => [scenario, [] as number[]])) as ScaleResult['cpuUsPerRequest'];
  const seedS: number[] = [];
  let seeded = 0;
  for (const size of SCALE_SIZES) {
    const began = Date.now();
    const ids = await grow(d.databaseUrl, merchantId, seeded, size);
    seeded = size;
    seedS.push((Date.now() - began) / 1000);
    log(
      `scale: ${size.toLocaleString('en')} businesses and ${size.toLocaleString('en')} ledger payments for the scale merchant (seeded in ${seedS.at(-1)!.toFixed(1)} s)`,
    );
    for (const scenario of SCENARIOS) {
      const requests = requestsOf(scenario, apiKey, ids, size);
      // The first size gets a second warm-up: its figures are every later size's yardstick.
      for (let warm = size === SCALE_SIZES[0] ? 2 : 1; warm > 0; warm--)
        await d.warm(`warm-up ${scenario} at ${size}`, 'api', requests(), { durationS: WARMUP_S, headers });
      cpu[scenario].push((await d.measure(scenario, 'api', SCALE_SIZES.indexOf(size) + 1, requests(), { headers })).cpuUsPerRequest);
    }
  }
  const full = await timed(() => d.verifyLedger({ full: true }));
  const ledgerEntries = await countEntries(d.databaseUrl);
  log(`scale: ledger:verify --full (${ledgerEntries.toLocaleString('en')} entries) exit ${full.code} in ${(full.ms / 1000).toFixed(1)} s`);
  await postNewPayments(d.databaseUrl, merchantId, seeded);
  const incremental = await timed(() => d.verifyLedger());
  const checked = (incremental.report as { checked?: ScaleResult['ledgerVerifyIncrementalChecked'] } | undefined)?.checked ?? null;
  log(
    `scale: ledger:verify after ${SCALE_NEW_PAYMENTS} more payments exit ${incremental.code} in ${(incremental.ms / 1000).toFixed(1)} s, read ${JSON.stringify(checked)}`,
  );

  const largest = SCALE_SIZES.length - 1;
  const targets: Target[] = SCENARIOS.map((scenario) => {
    const ratios = cpu[scenario].map((us) => us / cpu[scenario][0]);
    return {
      name: `${scenario}: CPU per request at ${SCALE_SIZES.slice(1)
        .map((n) => n.toLocaleString('en'))
        .join(' and ')} ÷ at ${SCALE_SIZES[0].toLocaleString('en')}`,
      target: `≤ ${SCALE_TARGETS.flat.toFixed(2)}×`,
      measured: `${ratios
        .slice(1)
        .map((r) => `${r.toFixed(2)}×`)
        .join(', ')} (${cpu[scenario].map((us) => `${us.toFixed(0)} µs`).join(' → ')})`,
      pass: ratios.slice(1).every((r) => r <= SCALE_TARGETS.flat),
    };
  });
  // Each payment: two entries and one balance transaction.
  const expected = { ledgerEntries: 2 * SCALE_NEW_PAYMENTS, balanceTransactions: SCALE_NEW_PAYMENTS };
  targets.push(
    {
      name: `ledger:verify --full over ${ledgerEntries.toLocaleString('en')} entries (${SCALE_SIZES[largest].toLocaleString('en')} businesses)`,
      target: 'exit 0 (time reported)',
      measured: `exit ${full.code}, ${(full.ms / 1000).toFixed(1)} s`,
      pass: full.code === 0,
    },
    {
      name: `ledger:verify after ${SCALE_NEW_PAYMENTS.toLocaleString('en')} more payments: rows read`,
      target: `exit 0, reads the ${expected.ledgerEntries.toLocaleString('en')} new entries and ${expected.balanceTransactions.toLocaleString('en')} balance transactions only (time reported)`,
      measured: `exit ${incremental.code}, read ${checked ? `${checked.ledgerEntries} entries, ${checked.balanceTransactions} balance transactions` : 'nothing reported'}, ${(incremental.ms / 1000).toFixed(1)} s (full: ${(full.ms / 1000).toFixed(1)} s)`,
      pass: incremental.code === 0 && checked?.ledgerEntries === expected.ledgerEntries && checked.balanceTransactions === expected.balanceTransactions,
    },
  );
  const result: ScaleResult = {
    sizes: SCALE_SIZES,
    cpuUsPerRequest: cpu,
    seedS,
    ledgerEntries,
    ledgerVerifyFullMs: full.ms,
    ledgerVerifyIncrementalMs: incremental.ms,
    ledgerVerifyIncrementalChecked: checked,
  };
  return { targets, results: { scale: result } };
};

function requestsOf(scenario: ScaleScenario, apiKey: string, ids: string[], size: number): () => autocannon.Request[] {
  switch (scenario) {
    case 'scale-get-one':
      return () => {
        let next = 0;
        return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${ids[next++ % ids.length]}` }) }];
      };
    case 'scale-list':
      return () => [{ method: 'GET', path: POBO_USERS_PATH }];
    case 'scale-create':
      return () => createBusinesses(apiKey, `scale-${size}-${Date.now().toString(36)}`);
    case 'scale-pi-create':
      return () => createPaymentIntents(apiKey, `scale-${size}-${Date.now().toString(36)}`, 'pi');
  }
}

/**
 * Grows the scale merchant from `from` to `to` businesses and ledger payments, then vacuums and analyses; answers a sample of the merchant's business ids.
 */
async function grow(databaseUrl: string, merchantId: string, from: number, to: number): Promise<string[]> {
  const client = new CountedClient({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, statement_timeout: 600_000 });
  await client.connect();
  try {
    const hex = (kind: string) => `substr(md5('scale-${kind}:' || g), 1, 24)`;
    const series = `FROM generate_series($2::int + 1, $3::int) AS g CROSS JOIN LATERAL (SELECT now() - ($3::int - g) * interval '2 seconds' AS at) AS t`;
    const values = [merchantId, from, to];
    await client.query(
      `INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country, allow_naira_collection, naira_collection_status,
         wallet_index, evm_address, svm_address, agreement_status, kyb_status, kyb_pending_requirements, created_at, updated_at)
       SELECT 'pobo_' || ${hex('pobo')}, $1, 'Scale Business ' || g, 'scale' || g || '@bench.example', '+2348012345678', 'NG', false, 'not_requested',
              ${WALLET_OFFSET} + g, '0x' || lpad(to_hex(${WALLET_OFFSET} + g), 40, '0'), 'Scale' || lpad(g::text, 39, '0'), 'pending', 'agreement_pending',
              '[]'::jsonb, t.at, t.at
       ${series}`,
      values,
    );
    await seedLedgerPayments(client, { merchantId, prefix: 'scale', from, to, spacing: '2 seconds' });
    await client.query('VACUUM (ANALYZE)');
    const { rows } = await client.query<{ id: string }>('SELECT id FROM pobo_businesses WHERE merchant_id = $1 ORDER BY random() LIMIT $2', [
      merchantId,
      ID_SAMPLE,
    ]);
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

async function timed<T extends object>(run: () => Promise<T>): Promise<T & { ms: number }> {
  const began = Date.now();
  const answer = await run();
  return { ...answer, ms: Date.now() - began };
}

/** `SCALE_NEW_PAYMENTS` more payments for the scale merchant, as the seed posts them, a second apart up to now. */
async function postNewPayments(databaseUrl: string, merchantId: string, from: number): Promise<void> {
  const client = new CountedClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seedLedgerPayments(client, { merchantId, prefix: 'scale', from, to: from + SCALE_NEW_PAYMENTS, spacing: '1 second' });
  } finally {
    await client.end();
  }
}

async function countEntries(databaseUrl: string): Promise<number> {
  const client = new CountedClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries')).rows[0].n);
  } finally {
    await client.end();
  }
}
