/**
 * The dashboard part of `npm run bench`: what a login costs (argon2id dominates), and a setup
 * read with a session (`GET /api/dashboard/api-keys`) against GET one business with an API key,
 * measured back to back on the same API process.
 */
import autocannon from 'autocannon';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { MeasuredRun, RunOptions, Target } from './money';
import type { BenchPart } from './deployment';
import { log } from './processes';
import { CONNECTIONS, DURATION_S, WARMUP_S } from './settings';

export const DASHBOARD_TARGETS = {
  /** CPU µs per `GET /api/dashboard/api-keys` ÷ CPU µs per GET one business, same run. */
  apiKeysCpuRatio: 1.2,
};

export type DashboardScenario = 'dashboard-get-one' | 'dashboard-api-keys' | 'dashboard-login';

export interface DashboardBenchInput {
  apiUrl: string;
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

  await input.warm('warm-up api dashboard api-keys', apiKeys, { ...options, durationS: input.warmUpS });
  await input.warm('warm-up api GET one (dashboard pair)', getOne, { ...options, durationS: input.warmUpS });
  const getOneRun = await input.measure('dashboard-get-one', getOne, options);
  const apiKeysRun = await input.measure('dashboard-api-keys', apiKeys, options);
  const loginRun = await input.measure('dashboard-login', login, { connections: LOGIN_CONNECTIONS, durationS: input.durationS });
  for (const [name, run] of [
    ['GET one', getOneRun],
    ['api-keys', apiKeysRun],
    ['login', loginRun],
  ] as const) {
    if (run.non2xx > 0 || run.errors > 0)
      throw new Error(`dashboard ${name}: ${run.non2xx} non-2xx, ${run.errors} errors (${JSON.stringify(run.statusCodes)})`);
  }

  const ratio = apiKeysRun.cpuUsPerRequest / getOneRun.cpuUsPerRequest;
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
    targets: [
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
    apiKey: d.apiKey,
    businessIds: d.businessIds,
    warmUpS: WARMUP_S,
    durationS: DURATION_S,
    connections: CONNECTIONS,
    measure: (scenario, requests, options) => d.measure(scenario, 'api', 1, requests, { ...options, ...own }),
    warm: (label, requests, options) => d.warm(label, 'api', requests, { ...options, ...own }),
    log,
  });
  return { targets: dashboard.targets, results: { dashboard } };
};
