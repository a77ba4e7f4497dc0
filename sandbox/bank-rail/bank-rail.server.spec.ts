import { setTimeout as sleep } from 'node:timers/promises';
import { createHmac } from 'node:crypto';
import { isValidNuban } from '../../src/common/banking/nuban';
import { hasValidRailSignature, ReceivedCallback, startCallbackReceiver, waitFor } from '../common/callback-receiver';
import { SandboxUnderTest } from '../common/sandbox-under-test';
import { BankRailServerOptions, createBankRailServer, DEFAULT_BANK_RAIL_WEBHOOK_SECRET, SANDBOX_BANK_CODE, signRailPayload } from './bank-rail.server';

const API_KEY = 'test-bank-rail-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };

const accountRequest = (overrides: Record<string, unknown> = {}) => ({
  reference: 'biz_123',
  account_name: 'Acme Ltd',
  currency: 'NGN',
  ...overrides,
});

describe('bank rail sandbox', () => {
  const sandbox = new SandboxUnderTest(() => createBankRailServer({ apiKey: API_KEY }), API_KEY);
  const { control, faults: setFaults } = sandbox;
  const open = (body: unknown, idempotencyKey: string | null = 'idem-1', headers: Record<string, string> = AUTH) =>
    sandbox.post('/v1/virtual-accounts', body, idempotencyKey, headers);
  const getAccount = (id: string, headers: Record<string, string> = AUTH) => sandbox.get(`/v1/virtual-accounts/${id}`, headers);
  const sandboxState = () => sandbox.state('/_sandbox/accounts');

  beforeEach(() => sandbox.start());
  afterEach(() => sandbox.stop());

  it('answers /health without auth', async () => {
    const res = await control('GET', '/health');
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
      bank_code: '999',
      bank_name: 'Sandbox Microfinance Bank',
      account_name: 'Acme Ltd',
      currency: 'NGN',
      type: 'static',
      amount: null,
      expires_at: null,
      status: 'active',
      created_at: expect.any(String),
    });
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
    expect(isValidNuban(SANDBOX_BANK_CODE, body.account_number)).toBe(true);

    const get = await getAccount(body.id);
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(body);

    expect(await sandboxState()).toEqual({ requests: 1, accounts: [{ ...body, idempotency_key: 'idem-1' }] });
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
      expect((await setFaults({ failNext: 2, failStatus: 502 })).json()).toEqual({
        latencyMs: 0,
        failNext: 2,
        failStatus: 502,
        down: false,
        hang: false,
        answerDelayMs: 0,
      });
      expect((await control('GET', '/health')).statusCode).toBe(200);
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
      await control('DELETE', '/_sandbox/faults');
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
      expect((await control('POST', '/_sandbox/reset')).statusCode).toBe(200);
      expect(await sandboxState()).toEqual({ requests: 0, accounts: [] });
      expect((await getAccount(created.id)).statusCode).toBe(404);
      const again = await open(accountRequest());
      expect(again.statusCode).toBe(201);
      expect(again.json().id).not.toBe(created.id);
    });
  });

  it('over a real socket: hang never answers until the client gives up, latencyMs delays, close() leaks nothing', async () => {
    const base = await sandbox.listen();
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
    await sandbox.app.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await waiting).status).toBe(200);
  });
});

/** Checks the signature with a hand-made HMAC, independently of signRailPayload, and that it was made just now. */
function expectValidSignature(callback: ReceivedCallback, secret: string) {
  const header = callback.headers['x-rail-signature'];
  expect(hasValidRailSignature(secret, header, callback.body)).toBe(true);
  const t = Number(/^t=(\d+),/.exec(String(header))?.[1]);
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);
  expect(signRailPayload(secret, t, callback.body)).toBe(header);
}

describe('bank rail sandbox: money movement', () => {
  const server = (options: Partial<BankRailServerOptions>) => createBankRailServer({ apiKey: API_KEY, payoutDelayMs: 20, deliveryRetryMs: 10, ...options });
  const sandbox = new SandboxUnderTest(server, API_KEY);
  const { restart, receiver, get, control, state } = sandbox;
  const post = (url: string, body: unknown, idempotencyKey: string | null = 'idem-1', headers: Record<string, string> = AUTH) =>
    sandbox.post(url, body, idempotencyKey, headers);

  const openAccount = async (overrides: Record<string, unknown> = {}, key = 'idem-account') =>
    (await post('/v1/virtual-accounts', accountRequest(overrides), key)).json();
  const transferRequest = (accountNumber: string, overrides: Record<string, unknown> = {}) => ({
    account_number: accountNumber,
    amount: 1_500_000,
    sender_bank_name: 'First Bank',
    sender_account_number: '3012345678',
    sender_name: 'Ada Obi',
    narration: 'Invoice 42',
    ...overrides,
  });
  const receiveTransfer = async (key: string, overrides: Record<string, unknown> = {}) => {
    const account = await openAccount();
    return post('/v1/simulations/inbound-transfers', transferRequest(account.account_number, overrides), key);
  };
  const payoutRequest = (overrides: Record<string, unknown> = {}) => ({
    reference: 'payout-1',
    amount: 250_000,
    currency: 'NGN',
    bank_code: '058',
    account_number: '0000000018',
    account_name: 'Ada Obi',
    narration: 'Settlement',
    ...overrides,
  });

  beforeEach(() => sandbox.start());
  afterEach(() => sandbox.stop());

  describe('virtual accounts', () => {
    it('issues NUBAN-valid account numbers for bank code 999', async () => {
      const numbers = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const account = await openAccount({}, `idem-${i}`);
        expect(account.bank_code).toBe(SANDBOX_BANK_CODE);
        expect(isValidNuban(SANDBOX_BANK_CODE, account.account_number)).toBe(true);
        numbers.add(account.account_number);
      }
      expect(numbers.size).toBe(20);
    });

    it('opens a dynamic account with an amount and an expiry (normalised to UTC), ignoring unknown fields', async () => {
      const res = await post(
        '/v1/virtual-accounts',
        accountRequest({ type: 'dynamic', amount: 500_000, expires_at: '2030-01-31T13:00:00+01:00', colour: 'red' }),
      );
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ type: 'dynamic', amount: 500_000, expires_at: '2030-01-31T12:00:00.000Z', account_name: 'Acme Ltd', status: 'active' });
      expect(body).not.toHaveProperty('colour');
      expect((await get(`/v1/virtual-accounts/${body.id}`)).json()).toEqual(body);

      const open = await post('/v1/virtual-accounts', accountRequest({ type: 'dynamic' }), 'idem-open');
      expect(open.statusCode).toBe(201);
      expect(open.json()).toMatchObject({ type: 'dynamic', amount: null, expires_at: null });
    });

    it.each([
      ['an unknown type', { type: 'temporary' }, 'type'],
      ['an amount on a static account', { amount: 100 }, 'amount'],
      ['an expiry on a static account', { type: 'static', expires_at: '2030-01-01T00:00:00Z' }, 'expires_at'],
      ['a zero amount', { type: 'dynamic', amount: 0 }, 'amount'],
      ['a fractional amount', { type: 'dynamic', amount: 10.5 }, 'amount'],
      ['an amount over the maximum', { type: 'dynamic', amount: 10_000_000_000_001 }, 'amount'],
      ['an amount as a string', { type: 'dynamic', amount: '100' }, 'amount'],
      ['an expiry without a time zone', { type: 'dynamic', expires_at: '2030-01-01T00:00:00' }, 'expires_at'],
      ['an expiry that is only a date', { type: 'dynamic', expires_at: '2030-01-01' }, 'expires_at'],
      ['an impossible expiry', { type: 'dynamic', expires_at: '2030-13-45T00:00:00Z' }, 'expires_at'],
    ])('refuses %s with 422', async (_name, overrides, field) => {
      const res = await post('/v1/virtual-accounts', accountRequest(overrides));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field, message: expect.any(String) }] });
    });
  });

  describe('inbound transfers', () => {
    it('credits an account of this bank: 201, then a replay answers 200 with the same transfer and no new event', async () => {
      const account = await openAccount();
      const res = await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number), 'idem-trf');
      expect(res.statusCode).toBe(201);
      const transfer = res.json();
      expect(transfer).toEqual({
        id: expect.stringMatching(/^trf_[0-9a-f]{24}$/),
        virtual_account_id: account.id,
        account_number: account.account_number,
        amount: 1_500_000,
        currency: 'NGN',
        sender_bank_name: 'First Bank',
        sender_account_number: '3012345678',
        sender_name: 'Ada Obi',
        narration: 'Invoice 42',
        status: 'received',
        received_at: expect.any(String),
      });

      const replay = await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number, { amount: 1 }), 'idem-trf');
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(transfer);

      const events = (await get('/v1/events')).json();
      expect(events).toEqual({
        events: [{ id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type: 'transfer.received', created_at: expect.any(String), data: transfer }],
        has_more: false,
      });
      expect((await state('/_sandbox/transfers')).transfers).toEqual([transfer]);
      expect(await state('/_sandbox/events')).toEqual({ events: events.events });
    });

    it('stores a missing sender_name as null', async () => {
      const res = await receiveTransfer('idem-trf', { sender_name: undefined });
      expect(res.statusCode).toBe(201);
      expect(res.json().sender_name).toBeNull();
    });

    it('needs an Idempotency-Key and auth', async () => {
      const account = await openAccount();
      expect((await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number), null)).statusCode).toBe(400);
      expect((await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number), 'k', {})).statusCode).toBe(401);
      expect((await state('/_sandbox/transfers')).transfers).toEqual([]);
    });

    it.each([
      ['an account number this bank never issued', { account_number: '0000000018' }, 'account_number', 'is not an account of this bank'],
      ['an account number that is not 10 digits', { account_number: '12345' }, 'account_number', expect.any(String)],
      ['a zero amount', { amount: 0 }, 'amount', expect.any(String)],
      ['an amount over the maximum', { amount: 10_000_000_000_001 }, 'amount', expect.any(String)],
      ['a missing sender bank name', { sender_bank_name: undefined }, 'sender_bank_name', expect.any(String)],
      ['a sender bank name over 100 characters', { sender_bank_name: 'b'.repeat(101) }, 'sender_bank_name', expect.any(String)],
      ['a 9-digit sender account', { sender_account_number: '301234567' }, 'sender_account_number', expect.any(String)],
      ['a sender name over 100 characters', { sender_name: 'n'.repeat(101) }, 'sender_name', expect.any(String)],
      ['a narration over 100 characters', { narration: 'n'.repeat(101) }, 'narration', expect.any(String)],
    ])('refuses %s with 422', async (_name, overrides, field, message) => {
      const res = await receiveTransfer('idem-trf', overrides);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field, message }] });
      expect(await state('/_sandbox/events')).toEqual({ events: [] });
    });
  });

  describe('returns', () => {
    it('returns a transfer once: later requests, whatever their key, replay the same return', async () => {
      const transfer = (await receiveTransfer('idem-trf')).json();
      const first = await post(`/v1/transfers/${transfer.id}/return`, { reason: 'Unexpected payment' }, 'ret-1');
      expect(first.statusCode).toBe(201);
      const returned = first.json();
      expect(returned).toEqual({
        id: expect.stringMatching(/^ret_[0-9a-f]{24}$/),
        transfer_id: transfer.id,
        amount: transfer.amount,
        currency: 'NGN',
        reason: 'Unexpected payment',
        status: 'returned',
        created_at: expect.any(String),
      });

      for (const key of ['ret-1', 'ret-2']) {
        const again = await post(`/v1/transfers/${transfer.id}/return`, { reason: 'Another reason' }, key);
        expect(again.statusCode).toBe(200);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual(returned);
      }

      expect(await state('/_sandbox/transfers')).toEqual({ transfers: [{ ...transfer, status: 'returned' }], returns: [returned], return_requests: 3 });
      const events = (await get('/v1/events')).json().events;
      expect(events.map((event: { type: string }) => event.type)).toEqual(['transfer.received', 'transfer.returned']);
      expect(events[1].data).toEqual(returned);
      // The received event keeps the transfer as it was when it arrived.
      expect(events[0].data.status).toBe('received');
      // A replay of the original transfer shows its current state.
      expect((await receiveTransfer('idem-trf')).json().status).toBe('returned');
    });

    it('answers 404 for an unknown transfer and 422 without a reason', async () => {
      const unknown = await post('/v1/transfers/trf_000000000000000000000000/return', { reason: 'x' }, 'ret-1');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'not_found' });
      const transfer = (await receiveTransfer('idem-trf')).json();
      for (const body of [{}, { reason: '' }, { reason: 'r'.repeat(101) }]) {
        const res = await post(`/v1/transfers/${transfer.id}/return`, body, 'ret-1');
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field: 'reason', message: expect.any(String) }] });
      }
      expect((await post(`/v1/transfers/${transfer.id}/return`, { reason: 'x' }, null)).statusCode).toBe(400);
      expect((await state('/_sandbox/transfers')).returns).toEqual([]);
    });
  });

  describe('payouts', () => {
    const payoutEvents = async () =>
      ((await get('/v1/events')).json().events as Array<{ type: string; data: { id: string; status: string; failure_code: string | null } }>).map(
        ({ type, data }) => ({ type, id: data.id, status: data.status, failure_code: data.failure_code }),
      );

    it('creates a processing payout, then it succeeds after payoutDelayMs', async () => {
      const res = await post('/v1/payouts', payoutRequest(), 'po-1');
      expect(res.statusCode).toBe(201);
      const payout = res.json();
      expect(payout).toEqual({
        id: expect.stringMatching(/^po_[0-9a-f]{24}$/),
        reference: 'payout-1',
        amount: 250_000,
        currency: 'NGN',
        bank_code: '058',
        account_number: '0000000018',
        account_name: 'Ada Obi',
        narration: 'Settlement',
        status: 'processing',
        failure_code: null,
        created_at: expect.any(String),
        updated_at: payout.created_at,
      });
      expect(await payoutEvents()).toEqual([]);

      const settled = await waitFor(
        async () => (await get(`/v1/payouts/${payout.id}`)).json(),
        (body) => body.status !== 'processing',
      );
      expect(settled).toMatchObject({ status: 'succeeded', failure_code: null });
      expect(settled.updated_at >= settled.created_at).toBe(true);
      expect(await payoutEvents()).toEqual([{ type: 'payout.succeeded', id: payout.id, status: 'succeeded', failure_code: null }]);
      expect((await get('/v1/events')).json().events[0].data).toEqual(settled);
    });

    it('decides the magic accounts at bank 058: not found, processing forever, succeeded then returned', async () => {
      const notFound = (await post('/v1/payouts', payoutRequest({ account_number: '0000000025' }), 'po-025')).json();
      const stuck = (await post('/v1/payouts', payoutRequest({ account_number: '0000000032' }), 'po-032')).json();
      const bounced = (await post('/v1/payouts', payoutRequest({ account_number: '0000000049' }), 'po-049')).json();
      // A magic account number is ordinary at any other bank (003 is one where its check digit fits too).
      expect(isValidNuban('003', '0000000025')).toBe(true);
      const ordinary = (await post('/v1/payouts', payoutRequest({ bank_code: '003', account_number: '0000000025', narration: null }), 'po-003')).json();
      expect(ordinary.narration).toBeNull();

      await waitFor(payoutEvents, (events) => events.length === 4);
      await sleep(100);
      const events = await payoutEvents();
      expect(events).toHaveLength(4);
      expect(events).toEqual(
        expect.arrayContaining([
          { type: 'payout.failed', id: notFound.id, status: 'failed', failure_code: 'account_not_found' },
          { type: 'payout.succeeded', id: bounced.id, status: 'succeeded', failure_code: null },
          { type: 'payout.succeeded', id: ordinary.id, status: 'succeeded', failure_code: null },
          { type: 'payout.returned', id: bounced.id, status: 'returned', failure_code: 'payout_returned' },
        ]),
      );
      const bouncedTypes = events.filter((event) => event.id === bounced.id).map((event) => event.type);
      expect(bouncedTypes).toEqual(['payout.succeeded', 'payout.returned']);

      const statuses = await Promise.all([notFound, stuck, bounced, ordinary].map(async ({ id }) => (await get(`/v1/payouts/${id}`)).json()));
      expect(statuses.map(({ status, failure_code }) => [status, failure_code])).toEqual([
        ['failed', 'account_not_found'],
        ['processing', null],
        ['returned', 'payout_returned'],
        ['succeeded', null],
      ]);
    });

    it('replays the same Idempotency-Key with the payout as it is now, never creating a second one', async () => {
      const first = (await post('/v1/payouts', payoutRequest(), 'po-1')).json();
      const retry = await post('/v1/payouts', payoutRequest({ amount: 999, reference: 'other' }), 'po-1');
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first);

      await waitFor(payoutEvents, (events) => events.length === 1);
      const late = await post('/v1/payouts', payoutRequest(), 'po-1');
      expect(late.statusCode).toBe(200);
      expect(late.json()).toMatchObject({ id: first.id, status: 'succeeded' });
      await sleep(60);
      expect(await payoutEvents()).toHaveLength(1);

      const sandbox = await state('/_sandbox/payouts');
      expect(sandbox.requests).toBe(3);
      expect(sandbox.payouts).toEqual([{ ...late.json(), idempotency_key: 'po-1' }]);
    });

    it('finds payouts by reference and answers 404 for an unknown id', async () => {
      const a = (await post('/v1/payouts', payoutRequest({ reference: 'ref-a' }), 'po-a')).json();
      const b = (await post('/v1/payouts', payoutRequest({ reference: 'ref-a' }), 'po-b')).json();
      await post('/v1/payouts', payoutRequest({ reference: 'ref-c' }), 'po-c');
      const found = await get('/v1/payouts?reference=ref-a');
      expect(found.statusCode).toBe(200);
      expect(found.json().payouts.map((payout: { id: string }) => payout.id)).toEqual([a.id, b.id]);
      expect((await get('/v1/payouts?reference=nothing')).json()).toEqual({ payouts: [] });
      expect((await get('/v1/payouts')).statusCode).toBe(400);
      const unknown = await get('/v1/payouts/po_000000000000000000000000');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'not_found' });
      expect((await get(`/v1/payouts/${a.id}`, {})).statusCode).toBe(401);
    });

    it.each([
      ['reference is missing', { reference: undefined }, 'reference'],
      ['amount is zero', { amount: 0 }, 'amount'],
      ['amount is fractional', { amount: 1.5 }, 'amount'],
      ['amount is over the maximum', { amount: 10_000_000_000_001 }, 'amount'],
      ['currency is not NGN', { currency: 'USD' }, 'currency'],
      ['bank_code is not 3 digits', { bank_code: '58' }, 'bank_code'],
      ['account_number is not 10 digits', { account_number: '000000002' }, 'account_number'],
      ['account_number fails the check digit', { account_number: '0000000026' }, 'account_number'],
      ['account_name is empty', { account_name: ' ' }, 'account_name'],
      ['account_name is over 200 characters', { account_name: 'a'.repeat(201) }, 'account_name'],
      ['narration is over 100 characters', { narration: 'n'.repeat(101) }, 'narration'],
      ['narration is not a string', { narration: 5 }, 'narration'],
    ])('refuses a payout whose %s with 422', async (_name, overrides, field) => {
      const res = await post('/v1/payouts', payoutRequest(overrides), 'po-1');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field, message: expect.any(String) }] });
      expect(await state('/_sandbox/payouts')).toEqual({ requests: 0, payouts: [] });
    });

    it('needs an Idempotency-Key', async () => {
      const res = await post('/v1/payouts', payoutRequest(), null);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_idempotency_key');
    });
  });

  describe('events', () => {
    it('pages with after and limit, oldest first', async () => {
      const account = await openAccount();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const transfer = (await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number, { amount: i + 1 }), `trf-${i}`)).json();
        ids.push(transfer.id);
      }
      const first = (await get('/v1/events?limit=2')).json();
      expect(first.has_more).toBe(true);
      expect(first.events.map((event: { data: { id: string } }) => event.data.id)).toEqual(ids.slice(0, 2));
      const second = (await get(`/v1/events?after=${first.events[1].id}&limit=2`)).json();
      expect(second.has_more).toBe(true);
      expect(second.events.map((event: { data: { id: string } }) => event.data.id)).toEqual(ids.slice(2, 4));
      const last = (await get(`/v1/events?after=${second.events[1].id}&limit=2`)).json();
      expect(last).toEqual({ events: [expect.objectContaining({ data: expect.objectContaining({ id: ids[4] }) })], has_more: false });
      expect((await get(`/v1/events?after=${last.events[0].id}`)).json()).toEqual({ events: [], has_more: false });
      const all = (await get('/v1/events')).json();
      expect(all.events).toHaveLength(5);
      expect(all.has_more).toBe(false);
      expect((await get('/v1/events?limit=5')).json().has_more).toBe(false);
    });

    it.each([['after=evt_unknown'], ['after='], ['limit=0'], ['limit=101'], ['limit=abc'], ['limit=2.5'], ['limit=1&limit=2']])(
      'refuses ?%s with 400',
      async (query) => {
        const res = await get(`/v1/events?${query}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'bad_request', message: expect.any(String) });
      },
    );

    it('needs auth', async () => {
      expect((await get('/v1/events', {})).statusCode).toBe(401);
    });
  });

  describe('callbacks', () => {
    it('posts each event to the callback URL after the answer, signed with the webhook secret', async () => {
      const endpoint = await receiver();
      await restart({ callbackUrl: endpoint.url, webhookSecret: 'whsec-test' });
      const created = await receiveTransfer('idem-trf');
      const transfer = created.json();
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );

      const [callback] = endpoint.received;
      const [event] = (await get('/v1/events')).json().events;
      expect(event).toMatchObject({ type: 'transfer.received', data: transfer });
      expect(callback.body).toBe(JSON.stringify(event));
      expect(callback.headers['content-type']).toBe('application/json');
      expect(callback.headers['x-rail-event-id']).toBe(event.id);
      expectValidSignature(callback, 'whsec-test');
      expect(() => expectValidSignature(callback, DEFAULT_BANK_RAIL_WEBHOOK_SECRET)).toThrow();

      // The sandbox records a delivery once its answer is back, after the receiver has counted the request.
      const webhook = await waitFor(
        () => state('/_sandbox/webhook'),
        (current) => current.deliveries.length > 0,
      );
      expect(webhook).toEqual({ url: endpoint.url, drop_next: 0, deliveries: [{ event_id: event.id, attempt: 1, status: 200, at: expect.any(String) }] });
    });

    it('signs with the default secret when none is given', async () => {
      const endpoint = await receiver();
      await restart({ callbackUrl: endpoint.url });
      await receiveTransfer('idem-trf');
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );
      expectValidSignature(endpoint.received[0], DEFAULT_BANK_RAIL_WEBHOOK_SECRET);
    });

    it('signRailPayload is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
      const expected = createHmac('sha256', 'secret').update('1700000000.{"a":1}').digest('hex');
      expect(signRailPayload('secret', 1_700_000_000, '{"a":1}')).toBe(`t=1700000000,v1=${expected}`);
    });

    it('delivers payout events raised by timers', async () => {
      const endpoint = await receiver();
      await restart({ callbackUrl: endpoint.url });
      const payout = (await post('/v1/payouts', payoutRequest({ account_number: '0000000049' }), 'po-1')).json();
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 2,
      );
      const bodies = endpoint.received.map((callback) => JSON.parse(callback.body));
      expect(bodies.map((event) => [event.type, event.data.id, event.data.status])).toEqual([
        ['payout.succeeded', payout.id, 'succeeded'],
        ['payout.returned', payout.id, 'returned'],
      ]);
      endpoint.received.forEach((callback) => expectValidSignature(callback, DEFAULT_BANK_RAIL_WEBHOOK_SECRET));
    });

    it('does not start a callback before the answer that caused it is sent', async () => {
      const endpoint = await receiver();
      await restart({ callbackUrl: endpoint.url });
      const account = await openAccount();
      await control('POST', '/_sandbox/faults', { answerDelayMs: 150 });
      let answeredAt = 0;
      const pending = post('/v1/simulations/inbound-transfers', transferRequest(account.account_number), 'idem-trf').then((res) => {
        answeredAt = Date.now();
        return res;
      });
      await sleep(80);
      expect(endpoint.received).toHaveLength(0);
      expect((await pending).statusCode).toBe(201);
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );
      expect(endpoint.received[0].at).toBeGreaterThanOrEqual(answeredAt);
    });

    it('drop_next loses the next N events: listed, never delivered', async () => {
      const endpoint = await receiver();
      const set = await control('POST', '/_sandbox/webhook', { url: endpoint.url, drop_next: 1 });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ url: endpoint.url, drop_next: 1, deliveries: [] });

      const account = await openAccount();
      await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number), 'trf-1');
      await post('/v1/simulations/inbound-transfers', transferRequest(account.account_number), 'trf-2');
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );
      await sleep(50);

      const events = (await get('/v1/events')).json().events;
      expect(events).toHaveLength(2);
      expect(endpoint.received.map((callback) => callback.headers['x-rail-event-id'])).toEqual([events[1].id]);
      expect(
        await waitFor(
          () => state('/_sandbox/webhook'),
          (current) => current.deliveries.length > 0,
        ),
      ).toMatchObject({ drop_next: 0, deliveries: [{ event_id: events[1].id, attempt: 1, status: 200 }] });
    });

    it('retries after a 500 with a fresh signature until a 2xx', async () => {
      const endpoint = await receiver([500, 503]);
      await restart({ callbackUrl: endpoint.url, deliveryRetryMs: 20 });
      await receiveTransfer('idem-trf');
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 3,
      );
      await sleep(100);
      expect(endpoint.received).toHaveLength(3);
      expect(new Set(endpoint.received.map((callback) => callback.body)).size).toBe(1);
      endpoint.received.forEach((callback) => expectValidSignature(callback, DEFAULT_BANK_RAIL_WEBHOOK_SECRET));
      // Backoff: 20 ms after the first failure, 40 ms after the second.
      expect(endpoint.received[1].at - endpoint.received[0].at).toBeGreaterThanOrEqual(15);
      expect(endpoint.received[2].at - endpoint.received[1].at).toBeGreaterThanOrEqual(35);
      const deliveries = (await state('/_sandbox/webhook')).deliveries;
      expect(deliveries.map((delivery: { attempt: number; status: number }) => [delivery.attempt, delivery.status])).toEqual([
        [1, 500],
        [2, 503],
        [3, 200],
      ]);
    });

    it('gives up after 8 attempts, recording a network error as status null', async () => {
      const closed = await startCallbackReceiver();
      await closed.close();
      await restart({ callbackUrl: closed.url, deliveryRetryMs: 1 });
      await receiveTransfer('idem-trf');
      const webhook = await waitFor(
        () => state('/_sandbox/webhook'),
        (current) => current.deliveries.length === 8,
      );
      await sleep(300);
      const deliveries = (await state('/_sandbox/webhook')).deliveries;
      expect(deliveries).toEqual(webhook.deliveries);
      expect(deliveries.map((delivery: { attempt: number; status: number | null }) => [delivery.attempt, delivery.status])).toEqual(
        [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => [attempt, null]),
      );
    });

    it('POST /_sandbox/deliver/:eventId re-sends a stored event once, freshly signed', async () => {
      const endpoint = await receiver();
      await receiveTransfer('idem-trf');
      const [event] = (await get('/v1/events')).json().events;
      const noUrl = await control('POST', `/_sandbox/deliver/${event.id}`);
      expect(noUrl.statusCode).toBe(409);
      expect(noUrl.json().error).toBe('no_callback_url');
      await control('POST', '/_sandbox/webhook', { url: endpoint.url });

      const res = await control('POST', `/_sandbox/deliver/${event.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 200 });
      expect(endpoint.received).toHaveLength(1);
      expect(endpoint.received[0].body).toBe(JSON.stringify(event));
      expectValidSignature(endpoint.received[0], DEFAULT_BANK_RAIL_WEBHOOK_SECRET);
      expect((await state('/_sandbox/webhook')).deliveries).toEqual([{ event_id: event.id, attempt: 1, status: 200, at: expect.any(String) }]);

      const unknown = await control('POST', '/_sandbox/deliver/evt_unknown');
      expect(unknown.statusCode).toBe(404);
    });

    it('answers the callback status from /_sandbox/deliver, a failure included', async () => {
      const endpoint = await receiver([500]);
      await control('POST', '/_sandbox/webhook', { url: endpoint.url });
      await control('POST', '/_sandbox/webhook', { drop_next: 1 });
      await receiveTransfer('idem-trf');
      const [event] = (await get('/v1/events')).json().events;
      expect((await control('POST', `/_sandbox/deliver/${event.id}`)).json()).toEqual({ status: 500 });
      // A manual re-send is not retried.
      await sleep(80);
      expect(endpoint.received).toHaveLength(1);
    });

    it.each([
      ['a url that is not a URL', { url: 'not a url' }, 'url'],
      ['a url that is not http', { url: 'ftp://127.0.0.1/x' }, 'url'],
      ['a numeric url', { url: 5 }, 'url'],
      ['a negative drop_next', { drop_next: -1 }, 'drop_next'],
      ['a fractional drop_next', { drop_next: 0.5 }, 'drop_next'],
      ['an unknown setting', { secret: 'x' }, 'secret'],
    ])('refuses %s with 400 invalid_webhook', async (_name, body, field) => {
      const res = await control('POST', '/_sandbox/webhook', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_webhook', details: [{ field, message: expect.any(String) }] });
      expect(await state('/_sandbox/webhook')).toEqual({ url: null, drop_next: 0, deliveries: [] });
    });

    it('refuses a callbackUrl option that is not an http(s) URL', () => {
      expect(() => createBankRailServer({ apiKey: API_KEY, callbackUrl: 'nope' })).toThrow(/callbackUrl/);
      expect(() => createBankRailServer({ apiKey: API_KEY, payoutDelayMs: -1 })).toThrow(/payoutDelayMs/);
    });

    it('close() cancels pending retries and payout timers at once', async () => {
      const endpoint = await receiver([500]);
      await restart({ callbackUrl: endpoint.url, deliveryRetryMs: 60_000, payoutDelayMs: 60_000 });
      await receiveTransfer('idem-trf');
      await post('/v1/payouts', payoutRequest(), 'po-1');
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );
      await sleep(20);
      const started = Date.now();
      await sandbox.app.close();
      expect(Date.now() - started).toBeLessThan(500);
    });
  });

  it('reset clears transfers, returns, payouts, events, deliveries and drop_next, and restores the constructed callback URL', async () => {
    const endpoint = await receiver();
    const other = await receiver();
    await restart({ callbackUrl: endpoint.url, payoutDelayMs: 50 });
    const transfer = (await receiveTransfer('idem-trf')).json();
    await post(`/v1/transfers/${transfer.id}/return`, { reason: 'x' }, 'ret-1');
    const payout = (await post('/v1/payouts', payoutRequest(), 'po-1')).json();
    await waitFor(
      () => endpoint.received.length,
      (count) => count === 2,
    );
    await control('POST', '/_sandbox/webhook', { url: other.url, drop_next: 3 });

    expect((await control('POST', '/_sandbox/reset')).statusCode).toBe(200);
    expect(await state('/_sandbox/transfers')).toEqual({ transfers: [], returns: [], return_requests: 0 });
    expect(await state('/_sandbox/payouts')).toEqual({ requests: 0, payouts: [] });
    expect(await state('/_sandbox/events')).toEqual({ events: [] });
    expect(await state('/_sandbox/accounts')).toEqual({ requests: 0, accounts: [] });
    expect(await state('/_sandbox/webhook')).toEqual({ url: endpoint.url, drop_next: 0, deliveries: [] });
    expect((await get(`/v1/payouts/${payout.id}`)).statusCode).toBe(404);
    expect((await get('/v1/events')).json()).toEqual({ events: [], has_more: false });

    // The payout's timer went with it: no event ever appears.
    await sleep(120);
    expect(await state('/_sandbox/events')).toEqual({ events: [] });
    expect(endpoint.received).toHaveLength(2);
    expect(other.received).toHaveLength(0);
  });

  describe('answerDelayMs', () => {
    it('runs the route at once but holds its answer', async () => {
      await control('POST', '/_sandbox/faults', { answerDelayMs: 300 });
      const started = Date.now();
      let answered = false;
      const pending = post('/v1/payouts', payoutRequest(), 'po-1').then((res) => {
        answered = true;
        return res;
      });
      const during = await waitFor(
        () => state('/_sandbox/payouts'),
        (current) => current.payouts.length === 1,
      );
      expect(answered).toBe(false);
      expect(during.payouts[0]).toMatchObject({ idempotency_key: 'po-1' });
      const res = await pending;
      expect(res.statusCode).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(res.json().id).toBe(during.payouts[0].id);
    });

    it('is validated like latencyMs and cleared with the other faults', async () => {
      for (const bad of [-1, 1.5, 600_001, '10']) {
        const res = await control('POST', '/_sandbox/faults', { answerDelayMs: bad });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'invalid_faults', details: [{ field: 'answerDelayMs', message: expect.any(String) }] });
      }
      expect((await control('POST', '/_sandbox/faults', { answerDelayMs: 600_000 })).json().answerDelayMs).toBe(600_000);
      expect((await control('DELETE', '/_sandbox/faults')).json().answerDelayMs).toBe(0);
    });

    it('over a real socket: a client that gives up before the answer finds the payout by replaying its key; close() releases held answers', async () => {
      const base = await sandbox.listen();
      const faults = (body: unknown) =>
        fetch(`${base}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const createPayout = (signal: AbortSignal) =>
        fetch(`${base}/v1/payouts`, {
          method: 'POST',
          headers: { ...AUTH, 'idempotency-key': 'po-socket', 'content-type': 'application/json' },
          body: JSON.stringify(payoutRequest()),
          signal,
        });

      await faults({ answerDelayMs: 2_000 });
      await expect(createPayout(AbortSignal.timeout(150))).rejects.toMatchObject({ name: 'TimeoutError' });
      const stored = (await (await fetch(`${base}/_sandbox/payouts`)).json()) as { payouts: Array<{ id: string }> };
      expect(stored.payouts).toHaveLength(1);

      await faults({ answerDelayMs: 0 });
      const replay = await createPayout(AbortSignal.timeout(5_000));
      expect(replay.status).toBe(200);
      expect(((await replay.json()) as { id: string }).id).toBe(stored.payouts[0].id);

      await faults({ answerDelayMs: 60_000 });
      const held = createPayout(AbortSignal.timeout(10_000));
      await sleep(100);
      const started = Date.now();
      await sandbox.app.close();
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await held).status).toBe(200);
    });
  });
});
