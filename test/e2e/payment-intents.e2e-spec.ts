import { isValidNuban } from '../../src/common/banking/nuban';
import { ApiProcess, spawnApi } from '../support/api-process';
import { eventually, sleep } from '../support/poll';
import { balanceOf, createIntent, fundIntent, getIntent, ledgerVerify, MoneyStack, newKey, post, startMoneyStack } from '../support/money-stack';
import { http, TestApp } from '../support/test-app';

describe('Payment intents (collections through the sandbox bank rail)', () => {
  let stack: MoneyStack;
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'pi' });
    t = stack.t;
    ({ apiKey } = await t.createMerchant('Acme Stores'));
  });

  afterAll(() => stack?.close());

  it('creates an intent with a dynamic virtual account: a NUBAN valid for its bank code', async () => {
    const intent = await createIntent(t, apiKey, { amount: 1234.5, expectedSenderAccountNumber: '0123456789' });

    expect(intent).toMatchObject({
      paymentIntentId: expect.stringMatching(/^pi_[0-9a-f]{24}$/),
      amount: 1234.5,
      currency: 'NGN',
      status: 'awaiting_payment',
      amountReceived: 0,
      expectedSenderBankName: null,
      expectedSenderAccountNumber: '0123456789',
      payments: [],
      fundedAt: null,
      confirmedAt: null,
      virtualAccount: { accountName: 'Acme Stores', bankName: 'Sandbox Microfinance Bank', bankCode: '999' },
    });
    expect(isValidNuban(intent.virtualAccount.bankCode, intent.virtualAccount.accountNumber)).toBe(true);
    expect(new Date(intent.expiresAt).getTime() - new Date(intent.createdAt).getTime()).toBeGreaterThan(29 * 60_000);
    expect(await getIntent(t, apiKey, intent.paymentIntentId)).toEqual(intent);
  });

  it('collect → funds_received → confirm credits the balance once', async () => {
    const { apiKey: key } = await t.createMerchant();
    const intent = await createIntent(t, key, { amount: 5000 });
    const funded = await fundIntent(t, key, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');

    expect(funded).toMatchObject({
      status: 'funds_received',
      amountReceived: 5000,
      payments: [expect.objectContaining({ amount: 5000, status: 'accepted', returnReason: null })],
    });
    expect(funded.fundedAt).not.toBeNull();
    expect(await balanceOf(t, key)).toEqual({ currency: 'NGN', available: 0, reserved: 0 });

    const confirmKey = newKey();
    const confirmed = await post(t, key, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {}, confirmKey);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.response).toMatchObject({ status: 'succeeded' });
    expect(await balanceOf(t, key)).toEqual({ currency: 'NGN', available: 5000, reserved: 0 });

    const replay = await post(t, key, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {}, confirmKey);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(confirmed.text);
    const again = await post(t, key, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('payment_intent_already_confirmed');
    expect(await balanceOf(t, key)).toEqual({ currency: 'NGN', available: 5000, reserved: 0 });

    const txs = await http(t.baseUrl, 'GET', '/api/merchant/balance-transactions', { apiKey: key });
    expect(txs.body.response).toEqual([expect.objectContaining({ type: 'payment', amount: 5000, currency: 'NGN', sourceId: intent.paymentIntentId })]);
  });

  it('confirm before the money arrived is 409 payment_not_received', async () => {
    const intent = await createIntent(t, apiKey);
    const result = await post(t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {});
    expect(result.status).toBe(409);
    expect(result.body.error.code).toBe('payment_not_received');
    // No body at all is the same request as `{}`.
    const bodiless = await post(t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, undefined);
    expect(bodiless.body.error.code).toBe('payment_not_received');
  });

  it.each([
    ['amount_mismatch', {}, { amount: 4999.99 }],
    ['sender_mismatch', { expectedSenderAccountNumber: '1111111111' }, { senderAccountNumber: '2222222222' }],
    ['sender_mismatch', { expectedSenderBankName: 'Zenith Bank' }, { senderBankName: 'Access Bank' }],
  ])('returns a transfer through the rail, once: %s', async (reason, intentFields, fundFields) => {
    const intent = await createIntent(t, apiKey, { amount: 5000, ...intentFields });
    const seen = await fundIntent(t, apiKey, intent.paymentIntentId, fundFields);

    expect(seen).toMatchObject({
      status: 'awaiting_payment',
      amountReceived: 0,
      payments: [expect.objectContaining({ status: 'returned', returnReason: reason })],
    });
    const transferId = (await stack.bankRail.state<any>('/_sandbox/transfers')).transfers.find(
      (tr: any) => tr.account_number === intent.virtualAccount.accountNumber,
    ).id;
    const returns = await eventually(
      async () => (await stack.bankRail.state<any>('/_sandbox/transfers')).returns.filter((r: any) => r.transfer_id === transferId),
      (r) => r.length > 0,
      10_000,
      50,
    );
    expect(returns).toEqual([expect.objectContaining({ transfer_id: transferId, reason })]);
  });

  it('a transfer after the intent was funded is returned as already_funded', async () => {
    const intent = await createIntent(t, apiKey, { amount: 300 });
    await fundIntent(t, apiKey, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
    const second = await fundIntent(t, apiKey, intent.paymentIntentId, {}, (i) => i.payments.length === 2);
    expect(second.status).toBe('funds_received');
    expect(second.amountReceived).toBe(300);
    expect(second.payments.map((p: any) => [p.status, p.returnReason])).toEqual([
      ['accepted', null],
      ['returned', 'already_funded'],
    ]);
  });

  it('an unfunded intent expires; a later transfer is returned as intent_expired and confirm says expired', async () => {
    const intent = await createIntent(t, apiKey, { amount: 700, expiresInMinutes: 5 });
    await stack.pg.query(`UPDATE payment_intents SET expires_at = now() - interval '1 second' WHERE id = $1`, [intent.paymentIntentId]);

    const expired = await eventually(
      () => getIntent(t, apiKey, intent.paymentIntentId),
      (i) => i.status === 'expired',
      10_000,
      100,
    );
    expect(expired.status).toBe('expired');
    const seen = await fundIntent(t, apiKey, intent.paymentIntentId);
    expect(seen.payments).toEqual([expect.objectContaining({ status: 'returned', returnReason: 'intent_expired' })]);
    const confirm = await post(t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {});
    expect(confirm.body.error.code).toBe('payment_intent_expired');
  });

  it("another merchant's intent is a 404 on every route", async () => {
    const intent = await createIntent(t, apiKey);
    const { apiKey: other } = await t.createMerchant();
    const id = intent.paymentIntentId;
    for (const result of [
      await http(t.baseUrl, 'GET', `/api/merchant/payment-intents/${id}`, { apiKey: other }),
      await post(t, other, `/api/merchant/payment-intents/${id}/confirm`, {}),
      await post(t, other, `/api/merchant/test-helpers/payment-intents/${id}/fund`, {}),
    ]) {
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe('resource_not_found');
    }
    expect((await http(t.baseUrl, 'GET', '/api/merchant/payment-intents', { apiKey: other })).body.response).toEqual([]);
  });

  describe('refused before anything is written', () => {
    const count = async () => (await stack.pg.query('SELECT count(*)::int AS n FROM payment_intents')).rows[0].n as number;
    const valid = () => ({ merchantReference: `ref-${Date.now()}-${Math.random()}`, amount: 100 });

    it.each(['merchantReference', 'amount'])('omitting %s: 400 naming it', async (field) => {
      const before = await count();
      const body: Record<string, unknown> = valid();
      delete body[field];
      const result = await post(t, apiKey, '/api/merchant/payment-intents', body);
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('validation_failed');
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
      expect(await count()).toBe(before);
    });

    it.each([
      ['a negative amount', { amount: -1 }, 'amount'],
      ['an over-precise amount', { amount: 99.999 }, 'amount'],
      ['an amount over the maximum', { amount: 100_000_000_000.01 }, 'amount'],
      ['an amount in exponent form below a kobo', { amount: 1e-7 }, 'amount'],
      ['an amount as a string', { amount: '100' }, 'amount'],
      ['an empty merchantReference', { merchantReference: '' }, 'merchantReference'],
      ['a 9-digit expected sender account', { expectedSenderAccountNumber: '012345678' }, 'expectedSenderAccountNumber'],
      ['expiresInMinutes under 5', { expiresInMinutes: 4 }, 'expiresInMinutes'],
      ['expiresInMinutes over a week', { expiresInMinutes: 10081 }, 'expiresInMinutes'],
      ['an unknown field', { currency: 'USD' }, 'currency'],
    ])('%s: 400 naming the field, nothing written', async (_why, overrides, field) => {
      const before = await count();
      const result = await post(t, apiKey, '/api/merchant/payment-intents', { ...valid(), ...overrides });
      expect(result.status).toBe(400);
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
      expect(await count()).toBe(before);
    });

    it('malformed JSON, an array and a string for a body: 400, nothing written', async () => {
      const before = await count();
      for (const raw of ['{"amount": 10,', '[]', '"x"', '{"merchantReference":"a\u0000b","amount":10}']) {
        const result = await post(t, apiKey, '/api/merchant/payment-intents', raw);
        expect(result.status).toBe(400);
      }
      expect(await count()).toBe(before);
    });

    it('a merchantReference already used under another key: 409 merchant_reference_in_use', async () => {
      const body = valid();
      expect((await post(t, apiKey, '/api/merchant/payment-intents', body)).status).toBe(201);
      const again = await post(t, apiKey, '/api/merchant/payment-intents', body);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('merchant_reference_in_use');
    });

    it('confirm with an unknown field: 400', async () => {
      const intent = await createIntent(t, apiKey);
      const result = await post(t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, { force: true });
      expect(result.status).toBe(400);
    });
  });

  it('lists page newest first with a Link to the next page', async () => {
    const { apiKey: key } = await t.createMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createIntent(t, key)).paymentIntentId);
    const first = await http(t.baseUrl, 'GET', '/api/merchant/payment-intents?limit=2', { apiKey: key });
    expect(first.body.response.map((i: any) => i.paymentIntentId)).toEqual([ids[2], ids[1]]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1];
    const second = await http(t.baseUrl, 'GET', next.replace(t.config.publicBaseUrl, ''), { apiKey: key });
    expect(second.body.response.map((i: any) => i.paymentIntentId)).toEqual([ids[0]]);
    expect(second.headers.get('link')).toBeNull();
    const foreign = await http(t.baseUrl, 'GET', `/api/merchant/payment-intents?cursor=${ids[0]}`, { apiKey });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe('invalid_cursor');
  });

  it('the ledger verifies', async () => {
    expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
  });
});

describe('Payment intents: an API process killed between the rail and the record', () => {
  let stack: MoneyStack;
  let api: ApiProcess | undefined;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'pi-kill', env: { IDEMPOTENCY_LOCK_MS: '1000', PROVIDER_TIMEOUT_MS: '8000' } });
  });

  afterAll(async () => {
    await api?.kill();
    await stack?.close();
  });

  const accountsFor = async (reference: string) =>
    (await stack.bankRail.state<{ accounts: { reference: string; account_number: string }[] }>('/_sandbox/accounts')).accounts.filter(
      (account) => account.reference === reference,
    );

  it('the rail opened the account, the process died before storing the intent: a retry with the same key stores it once, on that account', async () => {
    const { apiKey, merchantId } = await stack.t.createMerchant('Killed Mid-Create');
    api = await spawnApi(stack.db.url, stack.env);
    // The rail opens the account, then holds its answer: the process is killed with the account open and nothing stored.
    await stack.bankRail.faults({ answerDelayMs: 5_000 });
    const key = newKey();
    const body = { merchantReference: 'killed-mid-create', amount: 2500 };
    const accountRequests = async () => (await stack.bankRail.state<{ requests: number }>('/_sandbox/accounts')).requests;
    const before = await accountRequests();
    const inFlight = post({ baseUrl: api.baseUrl }, apiKey, '/api/merchant/payment-intents', body, key).catch((err: Error) => ({ failed: err.message }));
    await eventually(accountRequests, (n) => n > before, 10_000, 20);
    const [claimed] = (await stack.pg.query('SELECT resource_id FROM idempotency_keys WHERE merchant_id = $1', [merchantId])).rows;
    const opened = await accountsFor(claimed.resource_id);
    expect(opened).toHaveLength(1);
    await api.kill();
    api = undefined;
    expect(await inFlight).toEqual({ failed: expect.any(String) });
    await stack.bankRail.faults({});
    expect((await stack.pg.query('SELECT id FROM payment_intents WHERE merchant_id = $1', [merchantId])).rows).toEqual([]);

    // The client cannot know whether the intent exists: it sends the same request again, past the dead holder's lock.
    let retried = await post(stack.t, apiKey, '/api/merchant/payment-intents', body, key);
    while (retried.status === 423) {
      await sleep(Number(retried.headers.get('retry-after')) * 1000);
      retried = await post(stack.t, apiKey, '/api/merchant/payment-intents', body, key);
    }
    expect(retried.status).toBe(201);
    expect(retried.body.response).toMatchObject({ paymentIntentId: claimed.resource_id, virtualAccount: { accountNumber: opened[0].account_number } });
    expect(await accountsFor(claimed.resource_id)).toHaveLength(1);
    expect((await stack.pg.query('SELECT id FROM payment_intents WHERE merchant_id = $1', [merchantId])).rows).toEqual([{ id: claimed.resource_id }]);
    expect(await getIntent(stack.t, apiKey, claimed.resource_id)).toEqual(retried.body.response);
    const replayed = await post(stack.t, apiKey, '/api/merchant/payment-intents', body, key);
    expect([replayed.status, replayed.body.response]).toEqual([201, retried.body.response]);
  });
});
