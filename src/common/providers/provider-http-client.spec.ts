import { FastifyInstance } from 'fastify';
import { createVerificationProviderServer } from '../../../sandbox/verification-provider/verification-provider.server';
import { ProviderError, ProviderHttpClient } from './provider-http-client';

const API_KEY = 'spec-key';

/** The client against the sandbox provider over a real socket: timeouts, retries and the breaker. */
describe('ProviderHttpClient', () => {
  let sandbox: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    sandbox = createVerificationProviderServer({ apiKey: API_KEY, reviewDelayMs: 0 });
    await sandbox.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(sandbox.server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    sandbox.server.closeAllConnections();
    await sandbox.close();
  });

  afterEach(async () => {
    await sandbox.inject({ method: 'POST', url: '/_sandbox/reset' });
  });

  const faults = (body: object) => sandbox.inject({ method: 'POST', url: '/_sandbox/faults', payload: body });
  const client = (apiKey = API_KEY) => new ProviderHttpClient({ name: 'sandbox', baseUrl, apiKey, backoffMs: 10, resetTimeoutMs: 60_000 });
  const submissions = async () => (await sandbox.inject({ method: 'GET', url: '/_sandbox/applications' })).json<{ submissions: number }>().submissions;
  const submit = (c: ProviderHttpClient, retries: number, timeoutMs = 2_000) =>
    c.request({
      method: 'POST',
      path: '/v1/business-applications',
      headers: { 'idempotency-key': 'ref-1' },
      body: { reference: 'ref-1', company: { registration_number: 'RC-1' }, associated_persons: [], documents: [] },
      timeoutMs,
      retries,
    });

  it('retries 5xx answers with backoff and succeeds', async () => {
    await faults({ failNext: 2, failStatus: 503 });
    const c = client();
    const response = await submit(c, 2);
    expect(response.status).toBe(201);
    expect(await submissions()).toBe(1);
    c.shutdown();
  });

  it('gives up after its retries with a retryable error', async () => {
    await faults({ failNext: 3, failStatus: 502 });
    const c = client();
    await expect(submit(c, 1)).rejects.toMatchObject({ retryable: true, status: 502 });
    c.shutdown();
  });

  it('never retries a 4xx, and reports it as not retryable', async () => {
    const c = client('wrong-key');
    const error = await submit(c, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false, status: 401 });
    expect(await submissions()).toBe(0);
    c.shutdown();
  });

  it('times out a slow provider per attempt', async () => {
    await faults({ latencyMs: 1_000 });
    const c = client();
    const started = Date.now();
    await expect(submit(c, 0, 150)).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('timed out') });
    expect(Date.now() - started).toBeLessThan(900);
    c.shutdown();
  });

  it('opens the circuit after repeated failures and then fails fast without calling the provider', async () => {
    await faults({ down: true });
    const c = client();
    for (let i = 0; i < 6; i++) await submit(c, 0).catch(() => undefined);
    await faults({ down: false });
    const started = Date.now();
    await expect(submit(c, 3)).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('circuit open') });
    expect(Date.now() - started).toBeLessThan(100);
    expect(await submissions()).toBe(0);
    c.shutdown();
  });
});
