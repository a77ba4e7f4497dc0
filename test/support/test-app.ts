import { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/config/app.config';
import { MerchantsService } from '../../src/modules/auth/merchants.service';
import { contractOf } from './openapi-contract';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  /** Every log line written so far. */
  logs: string[];
  createMerchant(name?: string): Promise<{ merchantId: string; apiKeyId: string; apiKey: string }>;
  close(): Promise<void>;
}

/**
 * Suites send far more than a merchant would, from one IP and in parallel: the limits are raised
 * unless a suite sets its own (the rate-limit suite does).
 */
export const TEST_LIMITS = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  AUTH_FAILURE_LIMIT_PER_SECOND: '1000000',
  PUBLIC_RATE_LIMIT_PER_SECOND: '1000000',
  PUBLIC_RATE_LIMIT_BURST: '1000000',
  LOGIN_FAILURE_LIMIT_PER_ACCOUNT: '1000000',
  LOGIN_FAILURE_LIMIT_PER_IP: '1000000',
};

/** The real application on a real port, against the given database and the local Redis. */
export async function startTestApp(databaseUrl: string, env: Record<string, string> = {}): Promise<TestApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, PORT: '0', ...TEST_LIMITS, ...env });
  const app = await createApp(config, { logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    config,
    baseUrl,
    logs,
    createMerchant: (name = 'Test Merchant') => app.get(MerchantsService).createMerchant(name),
    close: () => app.close(),
  };
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch with JSON in and out; `body` may be a raw string to send malformed JSON. */
export async function http<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { apiKey?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const problems = (await contractOf(baseUrl)).check(method, `${baseUrl}${path}`, response.status, response.headers, parsed);
  if (problems.length > 0) throw new Error(`Answer outside the OpenAPI document:\n${problems.join('\n')}`);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** The dashboard session cookie an answer sets (`name=value`, as a request sends it back), or undefined. */
export function sessionCookieOf(result: Pick<HttpResult, 'headers'>): string | undefined {
  return /(?:^|, )(dashboard_session=[^;]*)/.exec(result.headers.get('set-cookie') ?? '')?.[1];
}

export interface CreatedBusiness {
  poboUserId: string;
  businessName: string;
  agreement: { status: string; url: string };
}

/** Creates a business through the API (endpoint 1) and expects 201. */
export async function createBusiness(t: Pick<TestApp, 'baseUrl'>, apiKey: string, overrides: Record<string, unknown> = {}): Promise<CreatedBusiness> {
  const result = await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', {
    apiKey,
    body: { businessName: 'Acme Trading Ltd', email: 'finance@acme.example', phoneNumber: '+2348012345678', country: 'NG', ...overrides },
  });
  expect(result.status).toBe(201);
  return result.body.response as CreatedBusiness;
}
