import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createBankRailServer } from './bank-rail.server';

const API_KEY = 'test-bank-rail-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const accountRequest = (overrides: Record<string, unknown> = {}) => ({
  reference: 'biz_123',
  account_name: 'Acme Ltd',
  currency: 'NGN',
  ...overrides,
});

describe('bank rail sandbox', () => {
  let app: FastifyInstance;

  const open = (body: unknown, idempotencyKey: string | null = 'idem-1', headers: Record<string, string> = AUTH) =>
    app.inject({
      method: 'POST',
      url: '/v1/virtual-accounts',
      headers: { ...headers, ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
      payload: body as Record<string, unknown>,
    });
  const getAccount = (id: string, headers: Record<string, string> = AUTH) => app.inject({ method: 'GET', url: `/v1/virtual-accounts/${id}`, headers });
  const sandboxState = async () => (await app.inject({ method: 'GET', url: '/_sandbox/accounts' })).json();
  const setFaults = (faults: Record<string, unknown>) => app.inject({ method: 'POST', url: '/_sandbox/faults', payload: faults });

  beforeEach(async () => {
    app = createBankRailServer({ apiKey: API_KEY });
    await app.ready();
  });

  afterEach(async () => {
    await app.close();
  });

  it('answers /health without auth', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer sandbox-verification-key' }],
    ['a wrong scheme', { authorization: `Token ${API_KEY}` }],
  ])('refuses %s with 401', async (_name, headers: Record<string, string>) => {
    const post = await open(accountRequest(), 'idem-1', headers);
    expect(post.statusCode).toBe(401);
    expect(post.json()).toEqual({ error: 'unauthorized' });
    expect((await getAccount('va_x', headers)).statusCode).toBe(401);
    expect(await sandboxState()).toEqual({ requests: 0, accounts: [] });
  });

  it('opens a virtual account: 201 with the account', async () => {
    const res = await open(accountRequest());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^va_[0-9a-f]{24}$/),
      reference: 'biz_123',
      account_number: expect.stringMatching(/^\d{10}$/),
      bank_name: 'Sandbox Microfinance Bank',
      currency: 'NGN',
      status: 'active',
      created_at: expect.any(String),
    });
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);

    const get = await getAccount(body.id);
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(body);

    expect(await sandboxState()).toEqual({ requests: 1, accounts: [{ ...body, account_name: 'Acme Ltd', idempotency_key: 'idem-1' }] });
  });

  it('answers 404 for an unknown account', async () => {
    const res = await getAccount('va_000000000000000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found' });
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
  ])('refuses an Idempotency-Key that is %s with 400', async (_name, key) => {
    const res = await open(accountRequest(), key);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_idempotency_key' });
    expect((await sandboxState()).requests).toBe(0);
  });

  it.each([
    ['reference is missing', { reference: undefined }, 'reference'],
    ['reference is empty', { reference: '' }, 'reference'],
    ['account_name is missing', { account_name: undefined }, 'account_name'],
    ['currency is not NGN', { currency: 'USD' }, 'currency'],
    ['currency is missing', { currency: undefined }, 'currency'],
  ])('refuses a request whose %s with 422', async (_name, overrides, field) => {
    const res = await open(accountRequest(overrides));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field, message: expect.any(String) }] });
    expect(await sandboxState()).toEqual({ requests: 0, accounts: [] });
  });

  it('replays a retry with the same Idempotency-Key: 200, same account, never a second one', async () => {
    const first = await open(accountRequest());
    const retry = await open(accountRequest());
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const state = await sandboxState();
    expect(state.requests).toBe(2);
    expect(state.accounts).toHaveLength(1);
  });

  it('opens exactly one account for 5 concurrent identical requests', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => open(accountRequest(), 'idem-concurrent')));
    expect(responses.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((res) => res.json().id)).size).toBe(1);
    const state = await sandboxState();
    expect(state.requests).toBe(5);
    expect(state.accounts).toHaveLength(1);
  });

  it('opens distinct accounts with distinct account numbers for distinct keys', async () => {
    const a = (await open(accountRequest({ reference: 'biz_a' }), 'idem-a')).json();
    const b = (await open(accountRequest({ reference: 'biz_b' }), 'idem-b')).json();
    expect(b.id).not.toBe(a.id);
    expect(b.account_number).not.toBe(a.account_number);
    expect((await sandboxState()).accounts).toHaveLength(2);
  });

  describe('faults', () => {
    it('failNext answers failStatus for the next N /v1 requests only', async () => {
      expect((await setFaults({ failNext: 2, failStatus: 502 })).json()).toEqual({ latencyMs: 0, failNext: 2, failStatus: 502, down: false, hang: false });
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) {
        const res = await open(accountRequest());
        expect(res.statusCode).toBe(502);
        expect(res.json()).toEqual({ error: 'sandbox_fault' });
      }
      expect((await open(accountRequest())).statusCode).toBe(201);
      expect((await sandboxState()).requests).toBe(1);
    });

    it('down answers 503 (before auth) until the faults are cleared', async () => {
      await setFaults({ down: true });
      const res = await open(accountRequest(), 'idem-1', {});
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'sandbox_fault' });
      expect((await getAccount('va_x')).statusCode).toBe(503);
      await app.inject({ method: 'DELETE', url: '/_sandbox/faults' });
      expect((await open(accountRequest())).statusCode).toBe(201);
    });

    it('latencyMs delays /v1 answers', async () => {
      await setFaults({ latencyMs: 120 });
      const started = Date.now();
      expect((await open(accountRequest())).statusCode).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    });

    it('reset clears faults and accounts', async () => {
      const created = (await open(accountRequest())).json();
      await setFaults({ down: true });
      expect((await app.inject({ method: 'POST', url: '/_sandbox/reset' })).statusCode).toBe(200);
      expect(await sandboxState()).toEqual({ requests: 0, accounts: [] });
      expect((await getAccount(created.id)).statusCode).toBe(404);
      const again = await open(accountRequest());
      expect(again.statusCode).toBe(201);
      expect(again.json().id).not.toBe(created.id);
    });
  });

  it('over a real socket: hang never answers until the client gives up, latencyMs delays, close() leaks nothing', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const faults = (body: unknown) =>
      fetch(`${base}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const post = (signal: AbortSignal) =>
      fetch(`${base}/v1/virtual-accounts`, {
        method: 'POST',
        headers: { ...AUTH, 'idempotency-key': 'idem-socket', 'content-type': 'application/json' },
        body: JSON.stringify(accountRequest()),
        signal,
      });

    expect((await faults({ hang: true })).status).toBe(200);
    let started = Date.now();
    await expect(post(AbortSignal.timeout(300))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect((await fetch(`${base}/health`)).status).toBe(200);

    await faults({ hang: false, latencyMs: 250 });
    started = Date.now();
    const delayed = await post(AbortSignal.timeout(5000));
    expect(delayed.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(((await delayed.json()) as { account_number: string }).account_number).toMatch(/^\d{10}$/);

    // A request still waiting out its latency when the server closes is answered at once.
    await faults({ latencyMs: 60_000 });
    const waiting = post(AbortSignal.timeout(10_000));
    await sleep(100);
    started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await waiting).status).toBe(200);
  });
});
