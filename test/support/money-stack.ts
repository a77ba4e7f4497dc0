import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { eventually } from './poll';
import { Resources } from './resources';
import { Sandbox, startSandboxes } from './sandboxes';
import { http, HttpResult, startTestApp, TestApp } from './test-app';
import { createTestDatabase, TestDatabase } from './test-database';
import { startTestWorker } from './test-worker';
import { BANK_RAIL_CALLBACK_PATH } from '../../src/modules/rail-events/rail-events.routes';

/** Everything a money suite runs against: its own database and queues, the sandbox rail calling the app back, a worker. */
export interface MoneyStack {
  db: TestDatabase;
  t: TestApp;
  bankRail: Sandbox;
  pg: Client;
  env: Record<string, string>;
  worker?: INestApplicationContext;
  /** Points the rail's callbacks at an app (another process, say). */
  callbacksTo(baseUrl: string): Promise<void>;
  close(): Promise<void>;
}

export interface MoneyStackOptions {
  name: string;
  env?: Record<string, string>;
  /** Start a worker in this process (default true). */
  worker?: boolean;
  payoutDelayMs?: number;
}

export async function startMoneyStack(options: MoneyStackOptions): Promise<MoneyStack> {
  const resources = new Resources();
  return resources.build(async () => {
    const db = await resources.add(createTestDatabase(), (created) => created.drop());
    const sandboxes = await resources.add(startSandboxes(0, { payoutDelayMs: options.payoutDelayMs ?? 20 }), (started) => started.close());
    const env = {
      ...sandboxes.env,
      QUEUE_PREFIX: `${options.name}-${process.pid}-${Date.now()}`,
      PERIODIC_JOB_INTERVAL_MS: '300',
      PROVIDER_TIMEOUT_MS: '2000',
      ...options.env,
    };
    const t = await resources.add(startTestApp(db.url, env), (app) => app.close());
    const callbacksTo = (baseUrl: string) => sandboxes.bankRail.control('webhook', { url: `${baseUrl}${BANK_RAIL_CALLBACK_PATH}` });
    await callbacksTo(t.baseUrl);
    const worker = options.worker === false ? undefined : await resources.add(startTestWorker(db.url, env), (started) => started.close());
    const pg = await resources.add(
      (async () => {
        const client = new Client({ connectionString: db.url });
        await client.connect();
        return client;
      })(),
      (client) => client.end(),
    );
    return { db, t, bankRail: sandboxes.bankRail, pg, env, worker, callbacksTo, close: () => resources.close() };
  });
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

/** A merchant with `amount` NGN available, collected and confirmed through the API. */
export async function fundedMerchant(t: TestApp, amount: number): Promise<{ apiKey: string; merchantId: string }> {
  const { apiKey, merchantId } = await t.createMerchant();
  const intent = await createIntent(t, apiKey, { amount });
  const funded = await fundIntent(t, apiKey, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
  expect(funded.status).toBe('funds_received');
  const confirmed = await post(t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {});
  expect(confirmed.status).toBe(200);
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
