import { randomBytes } from 'node:crypto';
import { isValidNuban, nubanFor } from '../../src/common/banking/nuban';
import { ApiProcess, spawnApi } from '../support/api-process';
import { eventually, sleep } from '../support/poll';
import { balanceOf, fundedMerchant, ledgerVerify, MoneyStack, newKey, post, startMoneyStack } from '../support/money-stack';
import { http, TestApp } from '../support/test-app';

const WD = '/api/merchant/withdrawals';
/** The deployment's flat fee in this suite: 10 NGN. */
const FEE = 10;
const GOOD_ACCOUNT = nubanFor('044', '069000003');
const request = (amount: number, overrides: Record<string, unknown> = {}) => ({
  merchantReference: `wd-${randomBytes(6).toString('hex')}`,
  amount,
  bankCode: '044',
  accountNumber: GOOD_ACCOUNT,
  accountName: 'Acme Stores Ltd',
  ...overrides,
});

describe('Withdrawals', () => {
  let stack: MoneyStack;
  let t: TestApp;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'wd', env: { WITHDRAWAL_FEE_KOBO: String(FEE * 100) } });
    t = stack.t;
  });

  afterAll(() => stack?.close());

  const getWithdrawal = async (apiKey: string, id: string) => (await http(t.baseUrl, 'GET', `${WD}/${id}`, { apiKey })).body.response;
  const settled = (apiKey: string, id: string, status: string) =>
    eventually(
      () => getWithdrawal(apiKey, id),
      (w) => w.status === status,
      10_000,
      50,
    );
  const btxOf = async (apiKey: string) => (await http(t.baseUrl, 'GET', '/api/merchant/balance-transactions', { apiKey })).body.response;

  it('lists the banks by CBN code', async () => {
    const result = await http(t.baseUrl, 'GET', '/api/merchant/banks', { apiKey: (await t.createMerchant()).apiKey });
    expect(result.status).toBe(200);
    expect(result.body.response).toContainEqual({ bankCode: '058', name: 'Guaranty Trust Bank' });
  });

  it('pays out: amount + fee reserved at once, then succeeded and the reservation consumed', async () => {
    const { apiKey } = await fundedMerchant(t, 10_000);
    const created = await post(t, apiKey, WD, request(2500, { narration: 'November' }));

    expect(created.status).toBe(201);
    expect(created.body.response).toMatchObject({
      amount: 2500,
      fee: FEE,
      currency: 'NGN',
      bankCode: '044',
      accountNumber: GOOD_ACCOUNT,
      narration: 'November',
      failureCode: null,
    });
    expect(['processing', 'succeeded']).toContain(created.body.response.status);
    const done = await settled(apiKey, created.body.response.withdrawalId, 'succeeded');
    expect(done.completedAt).not.toBeNull();
    expect(await balanceOf(t, apiKey)).toEqual({ currency: 'NGN', available: 10_000 - 2500 - FEE, reserved: 0 });
    expect((await btxOf(apiKey)).map((b: any) => [b.type, b.amount])).toEqual([
      ['fee', -FEE],
      ['withdrawal', -2500],
      ['payment', 10_000],
    ]);
  });

  it.each([
    ['0000000025', 'failed', 'account_not_found'],
    ['0000000049', 'failed', 'payout_returned'],
  ])('account 058/%s ends %s (%s) and the funds come back exactly once', async (account, status, code) => {
    const { apiKey } = await fundedMerchant(t, 5000);
    const created = await post(t, apiKey, WD, request(1000, { bankCode: '058', accountNumber: account }));
    expect(created.status).toBe(201);

    const done = await settled(apiKey, created.body.response.withdrawalId, status);
    expect(done.failureCode).toBe(code);
    await sleep(300);
    expect(await balanceOf(t, apiKey)).toEqual({ currency: 'NGN', available: 5000, reserved: 0 });
    expect((await btxOf(apiKey)).filter((b: any) => b.type === 'withdrawal_reversal')).toEqual([
      expect.objectContaining({ amount: 1000 + FEE, sourceId: done.withdrawalId }),
    ]);
  });

  it('account 058/0000000032 stays processing with the funds reserved', async () => {
    const { apiKey } = await fundedMerchant(t, 5000);
    const created = await post(t, apiKey, WD, request(1000, { bankCode: '058', accountNumber: '0000000032' }));
    // The rail took the payout and never ends it.
    expect(
      (
        await eventually(
          () => getWithdrawal(apiKey, created.body.response.withdrawalId),
          (w: { status: string }) => w.status !== 'pending',
        )
      ).status,
    ).toBe('processing');
    expect(await balanceOf(t, apiKey)).toEqual({ currency: 'NGN', available: 5000 - 1000 - FEE, reserved: 1000 + FEE });
  });

  it('insufficient funds: 409, nothing reserved, nothing written', async () => {
    const { apiKey, merchantId } = await fundedMerchant(t, 1000);
    const result = await post(t, apiKey, WD, request(1000));
    expect(result.status).toBe(409);
    expect(result.body.error.code).toBe('insufficient_funds');
    expect(await balanceOf(t, apiKey)).toEqual({ currency: 'NGN', available: 1000, reserved: 0 });
    expect((await stack.pg.query('SELECT count(*)::int AS n FROM withdrawals WHERE merchant_id = $1', [merchantId])).rows[0].n).toBe(0);
  });

  it('30 withdrawals with distinct keys racing over a balance that covers 10: exactly 10 succeed', async () => {
    const { apiKey } = await fundedMerchant(t, 10 * (100 + FEE));
    const results = await Promise.all(Array.from({ length: 30 }, () => post(t, apiKey, WD, request(100))));

    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'insufficient_funds')).toHaveLength(20);
    expect(await balanceOf(t, apiKey)).toMatchObject({ available: 0 });
    await eventually(
      () => balanceOf(t, apiKey),
      (b) => b.reserved === 0,
      10_000,
      100,
    );
    expect(await balanceOf(t, apiKey)).toEqual({ currency: 'NGN', available: 0, reserved: 0 });
  });

  describe('refused before anything is written', () => {
    let apiKey: string;
    let merchantId: string;

    beforeAll(async () => {
      ({ apiKey, merchantId } = await fundedMerchant(t, 1000));
    });

    const nothingWritten = async () =>
      expect((await stack.pg.query('SELECT count(*)::int AS n FROM withdrawals WHERE merchant_id = $1', [merchantId])).rows[0].n).toBe(0);

    it('a bad check digit: 400 account_number_invalid', async () => {
      const wrong = `${GOOD_ACCOUNT.slice(0, 9)}${(Number(GOOD_ACCOUNT[9]) + 1) % 10}`;
      expect(isValidNuban('044', wrong)).toBe(false);
      const result = await post(t, apiKey, WD, request(10, { accountNumber: wrong }));
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('account_number_invalid');
      await nothingWritten();
    });

    it.each([
      ['a negative amount', { amount: -5 }, 'amount'],
      ['an over-precise amount', { amount: 10.001 }, 'amount'],
      ['a zero amount', { amount: 0 }, 'amount'],
      ['an amount as a string', { amount: '10' }, 'amount'],
      ['an unknown bank', { bankCode: '999' }, 'bankCode'],
      ['a short account number', { accountNumber: '12345' }, 'accountNumber'],
      ['an unknown field', { extra: true }, 'extra'],
      ['a narration over 100 characters', { narration: 'x'.repeat(101) }, 'narration'],
    ])('%s: 400 naming the field', async (_why, overrides, field) => {
      const result = await post(t, apiKey, WD, request(10, overrides));
      expect(result.status).toBe(400);
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
      await nothingWritten();
    });

    it.each(['merchantReference', 'amount', 'bankCode', 'accountNumber', 'accountName'])('omitting %s: 400 naming it', async (field) => {
      const body: Record<string, unknown> = request(10);
      delete body[field];
      const result = await post(t, apiKey, WD, body);
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('validation_failed');
      expect(result.body.error.details.map((d: any) => d.field)).toContain(field);
      await nothingWritten();
    });

    it.each([['an array'], ['a string']])('%s for a body: 400', async (kind) => {
      const result = await post(t, apiKey, WD, kind === 'an array' ? '[]' : '"x"');
      expect(result.status).toBe(400);
      await nothingWritten();
    });
  });

  it("another merchant's withdrawal is a 404", async () => {
    const { apiKey } = await fundedMerchant(t, 500);
    const created = await post(t, apiKey, WD, request(100));
    const { apiKey: other } = await t.createMerchant();
    const result = await http(t.baseUrl, 'GET', `${WD}/${created.body.response.withdrawalId}`, { apiKey: other });
    expect(result.status).toBe(404);
    expect((await http(t.baseUrl, 'GET', WD, { apiKey: other })).body.response).toEqual([]);
  });

  it('the ledger verifies', async () => {
    expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
  });
});

describe('Rail callbacks', () => {
  let stack: MoneyStack;
  let t: TestApp;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'rail-cb' });
    t = stack.t;
  });

  afterAll(() => stack?.close());

  it('a dropped callback still lands, through reconciliation', async () => {
    const { apiKey } = await t.createMerchant();
    const intent = (await post(t, apiKey, '/api/merchant/payment-intents', { merchantReference: 'dropped', amount: 100 })).body.response;
    await stack.bankRail.control('webhook', { drop_next: 1 });
    expect((await post(t, apiKey, `/api/merchant/test-helpers/payment-intents/${intent.paymentIntentId}/fund`, {})).status).toBe(202);

    const funded = await eventually(
      async () => (await http(t.baseUrl, 'GET', `/api/merchant/payment-intents/${intent.paymentIntentId}`, { apiKey })).body.response,
      (i) => i.status === 'funds_received',
      10_000,
      100,
    );
    expect(funded.status).toBe('funds_received');
    const events = (await stack.pg.query(`SELECT source FROM rail_events WHERE rail = 'bank_rail' AND type = 'transfer.received'`)).rows;
    expect(events).toEqual([{ source: 'reconciliation' }]);
  });

  it('a forged, altered or stale callback is refused with 401; a repeated one changes nothing', async () => {
    const { signRailPayload } = await import('../../sandbox/bank-rail/bank-rail.server');
    const { DEV_BANK_RAIL_WEBHOOK_SECRET } = await import('../../src/config/dev-secrets');
    const events = (await stack.bankRail.state<any>('/_sandbox/events')).events;
    const raw = JSON.stringify(events.find((e: any) => e.type === 'transfer.received'));
    const now = Math.floor(Date.now() / 1000);
    const send = (body: string, signature: string) =>
      fetch(`${t.baseUrl}/api/rails/bank/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rail-signature': signature }, body });

    expect((await send(raw, signRailPayload('not-the-secret-at-all', now, raw))).status).toBe(401);
    expect((await send(raw.replace('"amount":10000', '"amount":99999'), signRailPayload(DEV_BANK_RAIL_WEBHOOK_SECRET, now, raw))).status).toBe(401);
    expect((await send(raw, signRailPayload(DEV_BANK_RAIL_WEBHOOK_SECRET, now - 301, raw))).status).toBe(401);
    expect((await send(raw, '')).status).toBe(401);
    const repeated = await send(raw, signRailPayload(DEV_BANK_RAIL_WEBHOOK_SECRET, now, raw));
    expect(repeated.status).toBe(200);
    expect(((await repeated.json()) as any).response).toEqual({ received: true, duplicate: true });
    expect((await stack.pg.query('SELECT count(*)::int AS n FROM inbound_payments')).rows[0].n).toBe(1);
  });

  it('the ledger verifies', async () => {
    expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
  });
});

describe('Withdrawals: an API process killed mid-withdrawal', () => {
  let stack: MoneyStack;
  let api: ApiProcess | undefined;
  const env = { IDEMPOTENCY_LOCK_MS: '1000', PROVIDER_TIMEOUT_MS: '8000' };

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'wd-kill', env });
  });

  afterEach(async () => {
    await api?.kill();
    await stack.bankRail.faults({});
  });

  afterAll(() => stack?.close());

  const payoutsOf = async (withdrawalId: string) =>
    (await stack.bankRail.state<any>('/_sandbox/payouts')).payouts.filter((p: any) => p.reference === withdrawalId);
  const withdrawalsOf = async (merchantId: string) =>
    (await stack.pg.query('SELECT id FROM withdrawals WHERE merchant_id = $1', [merchantId])).rows.map((r) => r.id as string);
  const reservationsOf = async (withdrawalId: string) =>
    (await stack.pg.query(`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'withdrawal_reserved' AND source_id = $1`, [withdrawalId])).rows[0]
      .n;

  /** Retries as a client does after a network failure: the same request and key until it is answered. */
  async function retry(baseUrl: string, apiKey: string, body: unknown, key: string) {
    for (;;) {
      const result = await post({ baseUrl }, apiKey, WD, body, key);
      if (result.status !== 423) return result;
      await sleep(Number(result.headers.get('retry-after')) * 1000);
    }
  }

  it.each([
    ['after the reservation, before the rail took the payout', { hang: true }, false],
    ['after the rail took the payout, before its answer arrived', { answerDelayMs: 5_000 }, true],
  ])('%s: a retry with the same key ends with one reservation and one payout', async (_when, fault, railActed) => {
    const { apiKey, merchantId } = await fundedMerchant(stack.t, 1000);
    api = await spawnApi(stack.db.url, stack.env);
    await stack.bankRail.faults(fault);
    const key = newKey();
    const body = request(400);
    const payoutRequests = () => stack.bankRail.requests.filter((r) => r.url === '/v1/payouts').length;
    const payoutRequestsBefore = payoutRequests();
    const inFlight = post({ baseUrl: api.baseUrl }, apiKey, WD, body, key).catch((err: Error) => ({ failed: err.message }));

    const [withdrawalId] = await eventually(
      () => withdrawalsOf(merchantId),
      (ids) => ids.length === 1,
      10_000,
      20,
    );
    await eventually(
      () => Promise.resolve(payoutRequests()),
      (n) => n > payoutRequestsBefore,
      10_000,
      20,
    );
    if (railActed)
      await eventually(
        () => payoutsOf(withdrawalId),
        (p) => p.length === 1,
        10_000,
        20,
      );
    await api.kill();
    // The client saw the connection drop: it cannot know whether the withdrawal happened.
    expect(await inFlight).toEqual({ failed: expect.any(String) });
    await stack.bankRail.faults({});
    expect(await payoutsOf(withdrawalId)).toHaveLength(railActed ? 1 : 0);

    const restarted = await spawnApi(stack.db.url, stack.env);
    try {
      const result = await retry(restarted.baseUrl, apiKey, body, key);
      expect(result.status).toBe(201);
      expect(result.body.response.withdrawalId).toBe(withdrawalId);
      await eventually(
        () => http(stack.t.baseUrl, 'GET', `${WD}/${withdrawalId}`, { apiKey }),
        (r) => r.body.response.status === 'succeeded',
        10_000,
        50,
      );
    } finally {
      await restarted.kill();
    }
    expect(await withdrawalsOf(merchantId)).toEqual([withdrawalId]);
    expect(await reservationsOf(withdrawalId)).toBe(1);
    expect(await payoutsOf(withdrawalId)).toHaveLength(1);
    expect(await balanceOf(stack.t, apiKey)).toEqual({ currency: 'NGN', available: 600, reserved: 0 });
  });

  it('the ledger verifies', async () => {
    expect(await ledgerVerify(stack)).toEqual({ code: 0, report: expect.objectContaining({ ok: true }) });
  });
});
