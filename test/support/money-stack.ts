import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { eventually } from './poll';
import { Sandbox } from './sandboxes';
import { startStack, Stack, StackOptions } from './stack';
import { http, HttpResult, TestApp } from './test-app';

/** A stack for money suites: the sandboxes (the bank rail calling the app back) and, by default, a worker. */
export interface MoneyStack extends Stack {
  bankRail: Sandbox;
}

export interface MoneyStackOptions {
  name: string;
  env?: Record<string, string>;
  /** Start a worker in this process (default true). */
  worker?: boolean;
  payoutDelayMs?: number;
  /** How the app is started (at its public URL, for the dashboard's origin checks, say). */
  startApp?: StackOptions['startApp'];
}

/** What a money stack asks of `startStack`: the bank rail quick, a worker, short periodic jobs and provider calls. */
export function moneyStackOptions(options: MoneyStackOptions): StackOptions {
  return {
    name: options.name,
    sandboxes: { payoutDelayMs: options.payoutDelayMs ?? 20 },
    worker: options.worker ?? true,
    env: { PERIODIC_JOB_INTERVAL_MS: '300', PROVIDER_TIMEOUT_MS: '2000', ...options.env },
    startApp: options.startApp,
  };
}

export async function startMoneyStack(options: MoneyStackOptions): Promise<MoneyStack> {
  const stack = await startStack(moneyStackOptions(options));
  return { ...stack, bankRail: stack.bankRail! };
}

export const newKey = () => `key-${randomBytes(12).toString('hex')}`;

/** A POST with an Idempotency-Key (a fresh one unless given). */
export function post<T = any>(
  t: Pick<TestApp, 'baseUrl'>,
  apiKey: string,
  path: string,
  body: unknown,
  key: string | null = newKey(),
  headers: Record<string, string> = {},
): Promise<HttpResult<T>> {
  return http<T>(t.baseUrl, 'POST', path, { apiKey, body, headers: { ...(key === null ? {} : { 'idempotency-key': key }), ...headers } });
}

export async function createIntent(t: Pick<TestApp, 'baseUrl'>, apiKey: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const result = await post(t, apiKey, '/api/merchant/payment-intents', {
    merchantReference: `ref-${randomBytes(6).toString('hex')}`,
    amount: 5000,
    ...overrides,
  });
  expect(result.status).toBe(201);
  return result.body.response;
}

export async function getIntent(t: Pick<TestApp, 'baseUrl'>, apiKey: string, id: string): Promise<any> {
  const result = await http(t.baseUrl, 'GET', `/api/merchant/payment-intents/${id}`, { apiKey });
  expect(result.status).toBe(200);
  return result.body.response;
}

/** Funds the intent through the test helper and waits for the rail's callback to land. */
export async function fundIntent(
  t: Pick<TestApp, 'baseUrl'>,
  apiKey: string,
  id: string,
  body: Record<string, unknown> = {},
  until = (intent: any) => intent.payments.length > 0,
): Promise<any> {
  const funded = await post(t, apiKey, `/api/merchant/test-helpers/payment-intents/${id}/fund`, body);
  expect(funded.status).toBe(202);
  return eventually(() => getIntent(t, apiKey, id), until, 10_000, 50);
}

/** `amount` NGN more available to the merchant of `apiKey`, collected and confirmed through the API. */
export async function fundBalance(t: Pick<TestApp, 'baseUrl'>, apiKey: string, amount: number): Promise<void> {
  const intent = await createIntent(t, apiKey, { amount });
  const funded = await fundIntent(t, apiKey, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
  expect(funded.status).toBe('funds_received');
  const confirmed = await post(t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {});
  expect(confirmed.status).toBe(200);
}

/** A merchant with `amount` NGN available, collected and confirmed through the API. */
export async function fundedMerchant(t: TestApp, amount: number): Promise<{ apiKey: string; merchantId: string }> {
  const { apiKey, merchantId } = await t.createMerchant();
  await fundBalance(t, apiKey, amount);
  return { apiKey, merchantId };
}

export async function balanceOf(t: Pick<TestApp, 'baseUrl'>, apiKey: string): Promise<{ available: number; reserved: number }> {
  const result = await http(t.baseUrl, 'GET', '/api/merchant/balance', { apiKey });
  expect(result.status).toBe(200);
  return result.body.response[0];
}

const run = promisify(execFile);

/** `npm run ledger:verify` against the suite's database and its rails: its exit code and its JSON line. */
export async function ledgerVerify(stack: Pick<MoneyStack, 'db' | 'env'>): Promise<{ code: number; report: any }> {
  // The stack's rails, and no grace: a test verifies once the money it moved has settled.
  const env = { ...process.env, ...stack.env, DATABASE_URL: stack.db.url, LEDGER_RECONCILE_GRACE_SECONDS: '0' };
  try {
    const { stdout } = await run('npm', ['run', '--silent', 'ledger:verify'], { cwd: `${__dirname}/../..`, env });
    return { code: 0, report: JSON.parse(stdout) };
  } catch (err) {
    const failure = err as { code: number; stdout: string; stderr: string };
    return { code: failure.code, report: failure.stdout ? JSON.parse(failure.stdout) : failure.stderr };
  }
}
