/**
 * The dashboard part of `npm run bench`: what a login costs (argon2id dominates), and reads with a
 * session against GET one business with an API key, measured back to back on the same API
 * process: a setup read (`GET /api/dashboard/api-keys`), and the search and the overview's daily
 * figures over a merchant with `DASHBOARD_OBJECTS` objects of each kind.
 */
import autocannon from 'autocannon';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { seedLedgerPayments } from './ledger-seed';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { MeasuredRun, RunOptions, Target } from './money';
import type { BenchPart } from './deployment';
import { log } from './processes';
import { CONNECTIONS, DASHBOARD_OBJECTS, DURATION_S, WARMUP_S } from './settings';

export const DASHBOARD_TARGETS = {
  /** CPU µs per `GET /api/dashboard/api-keys` ÷ CPU µs per GET one business, same run. */
  apiKeysCpuRatio: 1.2,
  /** CPU µs per search, and per daily-figures read, ÷ CPU µs per GET one business, same run. */
  searchCpuRatio: 2,
  dailyCpuRatio: 2,
};

export type DashboardScenario = 'dashboard-get-one' | 'dashboard-api-keys' | 'dashboard-search' | 'dashboard-daily' | 'dashboard-login';

export interface DashboardBenchInput {
  apiUrl: string;
  databaseUrl: string;
  apiKey: string;
  businessIds: string[];
  warmUpS: number;
  durationS: number;
  connections: number;
  /** Measured and warm-up runs against the API; each request carries its own credential. */
  measure: (scenario: DashboardScenario, requests: autocannon.Request[], options: RunOptions) => Promise<MeasuredRun>;
  warm: (label: string, requests: autocannon.Request[], options: RunOptions) => Promise<autocannon.Result>;
  log: (message: string) => void;
}

export interface DashboardBenchResult {
  loginCpuMsPerLogin: number;
  loginsPerS: number;
  apiKeysCpuUs: number;
  getOneCpuUs: number;
  apiKeysCpuRatio: number;
  searchCpuUs: number;
  dailyCpuUs: number;
  objectsPerKind: number;
  targets: Target[];
}

const PASSWORD = 'correct horse battery staple';
/** Logins run on few connections: each one is ~13 ms of one core hashing; more only queue. */
const LOGIN_CONNECTIONS = 2;

export async function runDashboardBench(input: DashboardBenchInput): Promise<DashboardBenchResult> {
  const { apiUrl, log } = input;
  const origin = new URL(apiUrl).origin;
  const email = `bench-${Date.now()}@bench.example`;
  const signUp = await fetch(`${apiUrl}/api/dashboard/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: PASSWORD, merchantName: 'Bench dashboard' }),
  });
  if (signUp.status !== 201) throw new Error(`dashboard sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const cookie = /dashboard_session=[^;]+/.exec(signUp.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error('dashboard sign-up set no session cookie');
  const csrf = ((await signUp.json()) as { response: { csrfToken: string } }).response.csrfToken;
  // A few keys, as a merchant has: the list reads them all.
  for (const name of ['Production', 'Staging', 'CI']) {
    const created = await fetch(`${apiUrl}/api/dashboard/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf, origin },
      body: JSON.stringify({ name }),
    });
    if (created.status !== 201) throw new Error(`creating a key answered ${created.status}`);
  }

  const options = { connections: input.connections, durationS: input.durationS };
  let next = 0;
  const getOne: autocannon.Request[] = [
    {
      method: 'GET',
      headers: { 'x-api-key': input.apiKey },
      setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${input.businessIds[next++ % input.businessIds.length]}` }),
    },
  ];
  const apiKeys: autocannon.Request[] = [{ method: 'GET', path: '/api/dashboard/api-keys', headers: { cookie } }];
  const login: autocannon.Request[] = [
    {
      method: 'POST',
      path: '/api/dashboard/login',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email, password: PASSWORD }),
    },
  ];

  const queries = await seedDashboardMerchant(input.databaseUrl, email, DASHBOARD_OBJECTS);
  let nextQuery = 0;
  const search: autocannon.Request[] = [
    {
      method: 'GET',
      headers: { cookie },
      setupRequest: (request) => ({ ...request, path: `/api/dashboard/search?q=${encodeURIComponent(queries[nextQuery++ % queries.length])}` }),
    },
  ];
  const daily: autocannon.Request[] = [{ method: 'GET', path: '/api/dashboard/balance/daily?days=30&timeZone=Africa%2FLagos', headers: { cookie } }];

  await input.warm('warm-up api dashboard api-keys', apiKeys, { ...options, durationS: input.warmUpS });
  await input.warm('warm-up api dashboard search', search, { ...options, durationS: input.warmUpS });
  await input.warm('warm-up api dashboard daily', daily, { ...options, durationS: input.warmUpS });
  await input.warm('warm-up api GET one (dashboard pair)', getOne, { ...options, durationS: input.warmUpS });
  const getOneRun = await input.measure('dashboard-get-one', getOne, options);
  const apiKeysRun = await input.measure('dashboard-api-keys', apiKeys, options);
  const searchRun = await input.measure('dashboard-search', search, options);
  const dailyRun = await input.measure('dashboard-daily', daily, options);
  const loginRun = await input.measure('dashboard-login', login, { connections: LOGIN_CONNECTIONS, durationS: input.durationS });
  for (const [name, run] of [
    ['GET one', getOneRun],
    ['api-keys', apiKeysRun],
    ['search', searchRun],
    ['daily', dailyRun],
    ['login', loginRun],
  ] as const) {
    if (run.non2xx > 0 || run.errors > 0)
      throw new Error(`dashboard ${name}: ${run.non2xx} non-2xx, ${run.errors} errors (${JSON.stringify(run.statusCodes)})`);
  }

  const ratio = apiKeysRun.cpuUsPerRequest / getOneRun.cpuUsPerRequest;
  const searchRatio = searchRun.cpuUsPerRequest / getOneRun.cpuUsPerRequest;
  const dailyRatio = dailyRun.cpuUsPerRequest / getOneRun.cpuUsPerRequest;
  log(
    `dashboard at ${DASHBOARD_OBJECTS} objects per kind: search ${searchRun.cpuUsPerRequest.toFixed(0)} µs CPU/request (${searchRatio.toFixed(2)}×, ` +
      `${searchRun.rps.toFixed(0)} req/s, p99 ${searchRun.latencyMs.p99} ms); daily figures ${dailyRun.cpuUsPerRequest.toFixed(0)} µs (${dailyRatio.toFixed(2)}×, ` +
      `${dailyRun.rps.toFixed(0)} req/s, p99 ${dailyRun.latencyMs.p99} ms)`,
  );
  log(
    `dashboard: GET api-keys ${apiKeysRun.cpuUsPerRequest.toFixed(0)} µs CPU/request vs GET one business ${getOneRun.cpuUsPerRequest.toFixed(0)} µs ` +
      `(${ratio.toFixed(2)}×); login ${(loginRun.cpuUsPerRequest / 1000).toFixed(1)} ms CPU/login at ${loginRun.rps.toFixed(1)} logins/s ` +
      '(argon2id m=19456 KiB, t=2, p=1)',
  );
  return {
    loginCpuMsPerLogin: loginRun.cpuUsPerRequest / 1000,
    loginsPerS: loginRun.rps,
    apiKeysCpuUs: apiKeysRun.cpuUsPerRequest,
    getOneCpuUs: getOneRun.cpuUsPerRequest,
    apiKeysCpuRatio: ratio,
    searchCpuUs: searchRun.cpuUsPerRequest,
    dailyCpuUs: dailyRun.cpuUsPerRequest,
    objectsPerKind: DASHBOARD_OBJECTS,
    targets: [
      {
        name: `GET /api/dashboard/search CPU vs GET one business (${DASHBOARD_OBJECTS} objects per kind)`,
        target: `≤ ${DASHBOARD_TARGETS.searchCpuRatio.toFixed(1)}×`,
        measured: `${searchRatio.toFixed(2)}× (${searchRun.cpuUsPerRequest.toFixed(0)} vs ${getOneRun.cpuUsPerRequest.toFixed(0)} µs)`,
        pass: searchRatio <= DASHBOARD_TARGETS.searchCpuRatio,
      },
      {
        name: `GET /api/dashboard/balance/daily (30 days) CPU vs GET one business (${DASHBOARD_OBJECTS} payments)`,
        target: `≤ ${DASHBOARD_TARGETS.dailyCpuRatio.toFixed(1)}×`,
        measured: `${dailyRatio.toFixed(2)}× (${dailyRun.cpuUsPerRequest.toFixed(0)} vs ${getOneRun.cpuUsPerRequest.toFixed(0)} µs)`,
        pass: dailyRatio <= DASHBOARD_TARGETS.dailyCpuRatio,
      },
      {
        name: 'GET /api/dashboard/api-keys CPU vs GET one business',
        target: `≤ ${DASHBOARD_TARGETS.apiKeysCpuRatio.toFixed(1)}×`,
        measured: `${ratio.toFixed(2)}× (${apiKeysRun.cpuUsPerRequest.toFixed(0)} vs ${getOneRun.cpuUsPerRequest.toFixed(0)} µs)`,
        pass: ratio <= DASHBOARD_TARGETS.apiKeysCpuRatio,
      },
      {
        name: 'Dashboard login CPU (argon2id m=19 MiB, t=2, p=1)',
        target: 'reported',
        measured: `${(loginRun.cpuUsPerRequest / 1000).toFixed(1)} ms per login, ${loginRun.rps.toFixed(1)} logins/s on ${LOGIN_CONNECTIONS} connections`,
        pass: true,
      },
    ],
  };
}

/** A login's CPU, and a setup read with a session against GET one with a key. */
export const runDashboardPart: BenchPart = async (d) => {
  log('');
  // Each request carries its own credential (a key, a session cookie): none from the server's headers.
  const own = { headers: {} };
  const dashboard = await runDashboardBench({
    apiUrl: d.servers.api.url,
    databaseUrl: d.databaseUrl,
    apiKey: d.apiKey,
    businessIds: d.businessIds,
    warmUpS: WARMUP_S,
    durationS: DURATION_S,
    connections: CONNECTIONS,
    measure: (scenario, requests, options) => d.measure(scenario, 'api', 1, requests, { ...options, ...own }),
    warm: (label, requests, options) => d.warm(label, 'api', requests, { ...options, ...own }),
    log,
  });
  // The seeded ledger is a ledger like any other: every check still passes.
  const verified = await d.verifyLedger();
  const verify = { name: 'ledger:verify after seeding the dashboard merchant', target: 'exit 0', measured: `exit ${verified.code}`, pass: verified.code === 0 };
  if (!verify.pass) log(`ledger:verify: ${JSON.stringify(verified.report)}`);
  return { targets: [...dashboard.targets, verify], results: { dashboard } };
};

/**
 * `count` objects of every kind the search finds for the merchant of `email` (businesses, payment
 * intents, withdrawals, international payments, vault transfers, each in a final state that holds
 * no money), and `count` payments in its ledger spread over the last 30 days, posted as a
 * confirmed payment is (balanced entries, the balance transaction, its 15 minutes' sums, the kept balance) so that
 * `ledger:verify` still passes. Answers a mix of what people type in the box, drawn from them.
 */
export async function seedDashboardMerchant(databaseUrl: string, email: string, count: number): Promise<string[]> {
  const client = new CountedClient({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, statement_timeout: 300_000 });
  await client.connect();
  try {
    const began = Date.now();
    const { rows } = await client.query<{ merchant_id: string }>('SELECT merchant_id FROM users WHERE email = $1', [email]);
    const merchantId = rows[0].merchant_id;
    const hex = (kind: string) => `substr(md5('dash-${kind}:' || g), 1, 24)`;
    const series = `FROM generate_series(1, $2::int) AS g CROSS JOIN LATERAL (SELECT now() - ($2::int - g) * interval '25 seconds' AS at) AS t`;
    const names = `(ARRAY['Ada', 'Bola', 'Chidi', 'Dayo', 'Emeka', 'Funke', 'Gbenga'])[1 + g % 7] || ' ' || (ARRAY['Okafor', 'Adeyemi', 'Bello', 'Eze'])[1 + g % 4] || ' ' || g`;
    const both = [merchantId, count];
    for (const [statement, values] of [
      [
        `INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country, allow_naira_collection, naira_collection_status,
         wallet_index, evm_address, svm_address, agreement_status, kyb_status, kyb_pending_requirements, created_at, updated_at)
       SELECT 'pobo_' || ${hex('pobo')}, $1, 'Dash Business ' || g, 'dash' || g || '@bench.example', '+2348012345678', 'NG', false, 'not_requested',
              1000000 + g, '0x' || lpad(to_hex(1000000 + g), 40, '0'), 'Dashb' || lpad(g::text, 39, '0'), 'pending', 'agreement_pending', '[]'::jsonb, t.at, t.at
       ${series}`,
        both,
      ],
      [
        `INSERT INTO payment_intents (id, merchant_id, merchant_reference, amount, currency, status, virtual_account_id, account_number, account_name,
         bank_name, bank_code, expires_at, created_at, updated_at)
       SELECT 'pi_' || ${hex('pi')}, $1, 'order-' || g, (1 + g % 5000) * 100, 'NGN', 'expired', 'va_dash_' || g, '77' || lpad(g::text, 8, '0'),
              'Dash Merchant', 'Bench Bank', '999', t.at, t.at, t.at
       ${series}
       -- The sandbox bank numbers the earlier parts' intents at random among ten-digit NUBANs, so each
       -- has about a one in 100,000 chance of holding a number seeded here: that seed row is left out.
       ON CONFLICT (account_number) DO NOTHING`,
        both,
      ],
      [
        `INSERT INTO withdrawals (id, merchant_id, merchant_reference, amount, fee, currency, status, bank_code, account_number, account_name, created_at, updated_at)
       SELECT 'wd_' || ${hex('wd')}, $1, 'payout-' || g, (1 + g % 4000) * 100, 5000, 'NGN', 'failed', '058', lpad(((g::bigint * 7919) % 10000000000)::text, 10, '0'),
              ${names}, t.at, t.at
       ${series}`,
        both,
      ],
      [
        `INSERT INTO international_payment_intents (id, merchant_id, pobo_user_id, quote_id, quote_option_id, route_type, destination_country, amount, currency,
         source_amount, source_currency, converted_amount, fee, exchange_rate, quote_expires_at, recipient_full_name, bank_code_type, bank_code,
         account_number, purpose_of_transfer, payment_reference, status, receipt_token, created_at, updated_at)
       SELECT 'ipi_' || ${hex('ipi')}, $1, 'pobo_' || ${hex('pobo')}, 'qt_' || ${hex('qt')}, 'qo_' || ${hex('qo')}, 'ngn', 'US', (1 + g % 3000) * 100, 'USD',
              (1 + g % 3000) * 160000 + 50000, 'NGN', (1 + g % 3000) * 160000, 50000, '1600', t.at, ${names}, 'swift', 'CHASUS33',
              lpad(((g::bigint * 104729) % 1000000000000)::text, 12, '0'), 'Salary', 'INV-' || g, 'rejected', md5('dash-receipt:' || g), t.at, t.at
       ${series}`,
        both,
      ],
      [
        `INSERT INTO vault_transfers (id, merchant_id, pobo_user_id, vault_transaction_id, chain, asset, amount, network_fee, from_address, wallet_index, to_address,
         merchant_reference, status, created_at, updated_at)
       SELECT 'vtr_' || ${hex('vtr')}, $1, 'pobo_' || ${hex('pobo')}, 'vtx_' || ${hex('vtx')}, 'base', 'USDC', (1 + g % 2000)::bigint * 1000000, 50000,
              '0x' || lpad(to_hex(1000000 + g), 40, '0'), 1000000 + g, '0x000000000000000000000000000000000000dEaD', 'vault-' || g, 'failed', t.at, t.at
       ${series}`,
        both,
      ],
    ] as const) {
      await client.query(statement, [...values]);
    }
    await seedLedgerPayments(client, { merchantId, prefix: 'dash', from: 0, to: count, spacing: '25 seconds' });
    await client.query('VACUUM (ANALYZE)');
    log(`seeded ${count} of each kind for the dashboard's merchant in ${((Date.now() - began) / 1000).toFixed(1)}s (vacuumed and analysed)`);

    // What people type: whole ids and their starts, references, the start of names, the end of account numbers, amounts.
    const sample = async (sql: string) => (await client.query<{ q: string }>(`${sql} ORDER BY random() LIMIT 20`, [merchantId])).rows.map((row) => row.q);
    return [
      ...(await sample(`SELECT id AS q FROM payment_intents WHERE merchant_id = $1`)),
      ...(await sample(`SELECT substr(id, 1, 12) AS q FROM withdrawals WHERE merchant_id = $1`)),
      ...(await sample(`SELECT id AS q FROM vault_transfers WHERE merchant_id = $1`)),
      ...(await sample(`SELECT merchant_reference AS q FROM payment_intents WHERE merchant_id = $1`)),
      ...(await sample(`SELECT payment_reference AS q FROM international_payment_intents WHERE merchant_id = $1`)),
      ...(await sample(`SELECT substr(business_name, 1, 16) AS q FROM pobo_businesses WHERE merchant_id = $1`)),
      ...(await sample(`SELECT split_part(account_name, ' ', 1) || ' ' || split_part(account_name, ' ', 2) AS q FROM withdrawals WHERE merchant_id = $1`)),
      ...(await sample(`SELECT right(account_number, 6) AS q FROM withdrawals WHERE merchant_id = $1`)),
      ...(await sample(`SELECT (amount / 100)::text AS q FROM payment_intents WHERE merchant_id = $1`)),
    ];
  } finally {
    await client.end();
  }
}
