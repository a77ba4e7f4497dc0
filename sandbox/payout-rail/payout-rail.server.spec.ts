import { setTimeout as sleep } from 'node:timers/promises';
import { hasValidRailSignature, waitFor } from '../common/callback-receiver';
import { SandboxUnderTest } from '../common/sandbox-under-test';
import {
  ACCOUNT_CLOSED_SUFFIX,
  createPayoutRailServer,
  DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET,
  formatMinorAmount,
  PAYOUT_HELD_SUFFIX,
  RETURN_REFUSED_SUFFIX,
  PAYOUT_RAIL_CURRENCIES,
  PayoutRailServerOptions,
} from './payout-rail.server';

const API_KEY = 'test-payout-rail-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const STEP_MS = 80;

const recipient = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Jane Doe',
  email: 'jane@example.com',
  country: 'US',
  bank_code_type: 'swift',
  bank_code: 'CHASUS33',
  account_number: '123456789',
  ...overrides,
});
const ibanRecipient = (iban: string) => recipient({ country: 'DE', bank_code_type: 'iban', bank_code: iban, account_number: null });

const payoutRequest = (overrides: Record<string, unknown> = {}) => ({
  reference: 'iin_1',
  currency: 'USD',
  amount: 123_450,
  recipient: recipient(),
  purpose_of_transfer: 'Payment for services',
  payment_reference: 'Invoice 42',
  ordering_customer: { name: 'Acme Ltd', country: 'NG' },
  ...overrides,
});

describe('payout rail sandbox', () => {
  const server = (options: Partial<PayoutRailServerOptions>) =>
    createPayoutRailServer({ apiKey: API_KEY, settlementStepMs: STEP_MS, deliveryRetryMs: 10, ...options });
  const sandbox = new SandboxUnderTest(server, API_KEY);
  const { restart, receiver, get, control, state, events } = sandbox;
  const create = (body: Record<string, unknown>, idempotencyKey: string | null = String(body.reference), headers: Record<string, string> = AUTH) =>
    sandbox.post('/v1/payouts', body, idempotencyKey, headers);
  const settled = (reference = 'iin_1') =>
    waitFor(
      async () => (await get(`/v1/payouts/${reference}`)).json(),
      (payout) => payout.status !== 'processing',
    );

  beforeEach(() => sandbox.start());
  afterEach(() => sandbox.stop());

  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer sandbox-bridge-rail-key' }],
  ])('refuses %s with 401 on every /v1 route', async (_name, headers: Record<string, string>) => {
    expect((await create(payoutRequest(), 'iin_1', headers)).statusCode).toBe(401);
    for (const url of ['/v1/payouts/iin_1', '/v1/events']) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
    }
    expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
  });

  it('accepts a payout as processing, then completes it after the step with an MT103 confirmation', async () => {
    const res = await create(payoutRequest());
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^fpo_[0-9a-f]{24}$/),
      reference: 'iin_1',
      currency: 'USD',
      amount: 123_450,
      recipient: recipient(),
      purpose_of_transfer: 'Payment for services',
      payment_reference: 'Invoice 42',
      ordering_customer: { name: 'Acme Ltd', country: 'NG' },
      status: 'processing',
      failure_code: null,
      failure_message: null,
      confirmation: null,
      return: null,
      created_at: expect.any(String),
      updated_at: created.created_at,
    });
    expect((await get('/v1/payouts/iin_1')).json()).toEqual(created);
    expect(await events()).toEqual([]);

    const completed = await settled();
    expect(Date.parse(completed.updated_at) - Date.parse(created.created_at)).toBeGreaterThanOrEqual(STEP_MS - 5);
    expect(completed).toEqual({
      ...created,
      status: 'completed',
      updated_at: expect.any(String),
      confirmation: {
        uetr: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        sender_reference: expect.stringMatching(/^[A-Z0-9]{16}$/),
        bank_operation_code: 'CRED',
        value_date: completed.updated_at.slice(0, 10),
        currency: 'USD',
        amount: '1234.50',
        ordering_customer: 'Acme Ltd, NG',
        account_with_institution: 'CHASUS33',
        beneficiary_account: '123456789',
        beneficiary_name: 'Jane Doe',
        remittance_information: 'Invoice 42',
        details_of_charges: 'OUR',
      },
    });
    expect(await events()).toEqual([
      { id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type: 'payout.completed', created_at: expect.any(String), data: completed },
    ]);
  });

  it('stays processing for the whole step; the IBAN is the beneficiary account; the purpose is the remittance information without a payment reference', async () => {
    await restart({ settlementStepMs: 300 });
    // An account number given with an IBAN is kept but neither paid nor screened.
    await create(
      payoutRequest({
        currency: 'EUR',
        amount: 5,
        payment_reference: null,
        recipient: { ...ibanRecipient('DE89370400440532013000'), account_number: '19999' },
      }),
    );
    await sleep(200);
    expect((await get('/v1/payouts/iin_1')).json().status).toBe('processing');
    const completed = await settled();
    expect(completed.status).toBe('completed');
    expect(completed.confirmation).toMatchObject({
      currency: 'EUR',
      amount: '0.05',
      account_with_institution: 'DE89370400440532013000',
      beneficiary_account: 'DE89370400440532013000',
      remittance_information: 'Payment for services',
    });
  });

  describe(`an account or IBAN ending ${ACCOUNT_CLOSED_SUFFIX}`, () => {
    it.each([
      ['an account number', payoutRequest({ recipient: recipient({ account_number: '55559999' }) })],
      ['an IBAN', payoutRequest({ currency: 'EUR', recipient: ibanRecipient('DE89370400440532019999') })],
      [
        'an IBAN, whatever account number comes with it',
        payoutRequest({ currency: 'EUR', recipient: { ...ibanRecipient('DE89370400440532019999'), account_number: '123' } }),
      ],
    ])('accepts %s as processing, then fails it after the step with beneficiary_account_closed', async (_name, body) => {
      const res = await create(body);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ status: 'processing', failure_code: null });
      const failed = await settled();
      expect(failed).toMatchObject({ status: 'failed', failure_code: 'beneficiary_account_closed', failure_message: expect.any(String), confirmation: null });
      expect(await events()).toEqual([expect.objectContaining({ type: 'payout.failed', data: failed })]);
    });
  });

  it(`keeps a payout to an account ending ${PAYOUT_HELD_SUFFIX} processing for ever, with no event, whatever the step`, async () => {
    for (const step of [STEP_MS, 0]) {
      await restart({ settlementStepMs: step });
      const res = await create(payoutRequest({ recipient: recipient({ account_number: `5555${PAYOUT_HELD_SUFFIX}` }) }));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ status: 'processing' });
      await sleep(STEP_MS + 50);
      expect((await get('/v1/payouts/iin_1')).json()).toMatchObject({ status: 'processing', confirmation: null });
      expect(await events()).toEqual([]);
    }
  });

  describe('returns', () => {
    const ask = (reference = 'iin_1') => sandbox.post(`/v1/payouts/${reference}/return`, {}, null, AUTH);
    const returned = (reference = 'iin_1') =>
      waitFor(
        async () => (await get(`/v1/payouts/${reference}`)).json(),
        (payout) => payout.return?.status !== 'pending',
      );

    it('returns a processing, failed or completed payout whole to the bridge side after the step, raising payout.returned once each', async () => {
      await create(payoutRequest());
      await create(payoutRequest({ reference: 'iin_2', recipient: recipient({ account_number: '5559999' }) }), 'iin_2');
      await settled('iin_2');
      await create(payoutRequest({ reference: 'iin_3' }), 'iin_3');
      await settled('iin_3');
      for (const reference of ['iin_1', 'iin_2', 'iin_3']) expect((await ask(reference)).statusCode).toBe(202);
      for (const reference of ['iin_1', 'iin_2', 'iin_3']) {
        expect(await returned(reference)).toMatchObject({ status: 'returned', return: { status: 'completed', amount: 123_450 } });
      }
      // The cancelled payout never completes; a retry answers the return as it is.
      await sleep(STEP_MS + 50);
      expect((await get('/v1/payouts/iin_1')).json().status).toBe('returned');
      expect((await ask('iin_1')).statusCode).toBe(200);
      expect((await events()).filter((e: { type: string }) => e.type === 'payout.returned')).toHaveLength(3);
    });

    it(`refuses to return a payout to an account ending ${RETURN_REFUSED_SUFFIX}, raising payout.return_refused`, async () => {
      await restart({ settlementStepMs: 0 });
      await create(payoutRequest({ recipient: recipient({ account_number: `55${RETURN_REFUSED_SUFFIX}` }) }));
      expect((await ask()).statusCode).toBe(202);
      expect((await get('/v1/payouts/iin_1')).json()).toMatchObject({
        status: 'completed',
        return: { status: 'refused', failure_code: 'return_refused', amount: null },
      });
      expect((await events()).map((e: { type: string }) => e.type)).toEqual(['payout.completed', 'payout.return_refused']);
    });
  });

  it('with a step of 0 answers the outcome at once, a failure included, and raises its event', async () => {
    await restart({ settlementStepMs: 0 });
    const completed = (await create(payoutRequest())).json();
    expect(completed).toMatchObject({ status: 'completed', confirmation: expect.objectContaining({ amount: '1234.50' }) });
    const failed = (await create(payoutRequest({ reference: 'iin_2', recipient: recipient({ account_number: '9999' }) }))).json();
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'beneficiary_account_closed' });
    expect((await events()).map((event: { type: string; data: { reference: string } }) => [event.type, event.data.reference])).toEqual([
      ['payout.completed', 'iin_1'],
      ['payout.failed', 'iin_2'],
    ]);
  });

  it('is idempotent by reference: a retry answers the payout as it is now, never a second one', async () => {
    const first = (await create(payoutRequest())).json();
    await settled();
    const retry = await create(payoutRequest({ amount: 1 }));
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toMatchObject({ id: first.id, amount: 123_450, status: 'completed' });
    expect(await state('/_sandbox/calls?reference=iin_1')).toEqual({ createRequests: 2, created: 1 });
    expect((await state('/_sandbox/payouts')).payouts).toHaveLength(1);
    expect(await events()).toHaveLength(1);
  });

  it('creates exactly one payout for 5 concurrent identical requests', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => create(payoutRequest())));
    expect(responses.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(await state('/_sandbox/calls?reference=iin_1')).toEqual({ createRequests: 5, created: 1 });
  });

  it('answers 404 for an unknown reference', async () => {
    const res = await get('/v1/payouts/iin_unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found' });
  });

  it('refuses a missing Idempotency-Key with 400, one other than the reference with 422', async () => {
    expect((await create(payoutRequest(), null)).statusCode).toBe(400);
    const mismatch = await create(payoutRequest(), 'other');
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({ error: 'invalid_request', details: [{ field: 'reference', message: 'must equal the Idempotency-Key header' }] });
  });

  it.each([
    ['currency is not paid out', { currency: 'JPY' }, 'currency'],
    ['amount is 0', { amount: 0 }, 'amount'],
    ['amount is fractional', { amount: 1.5 }, 'amount'],
    ['recipient is missing', { recipient: null }, 'recipient'],
    ['recipient.bank_code is not a BIC', { recipient: recipient({ bank_code: 'chase' }) }, 'recipient.bank_code'],
    ['recipient.account_number is missing', { recipient: recipient({ account_number: undefined }) }, 'recipient.account_number'],
    ['purpose_of_transfer is missing', { purpose_of_transfer: undefined }, 'purpose_of_transfer'],
    ['payment_reference is empty', { payment_reference: '' }, 'payment_reference'],
    ['ordering_customer is missing', { ordering_customer: undefined }, 'ordering_customer'],
    ['ordering_customer.name is empty', { ordering_customer: { name: '', country: 'NG' } }, 'ordering_customer.name'],
    ['ordering_customer.name is over 200 characters', { ordering_customer: { name: 'A'.repeat(201), country: 'NG' } }, 'ordering_customer.name'],
    ['ordering_customer.country is lower case', { ordering_customer: { name: 'Acme', country: 'ng' } }, 'ordering_customer.country'],
  ])('refuses a request whose %s with 422', async (_name, overrides, field) => {
    const res = await create(payoutRequest(overrides));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field, message: expect.any(String) }] });
    expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
  });

  it('pays out in every listed currency, with 2 decimals', async () => {
    await restart({ settlementStepMs: 0 });
    for (const [index, currency] of Object.keys(PAYOUT_RAIL_CURRENCIES).entries()) {
      const payout = (await create(payoutRequest({ reference: `iin_${index}`, currency, amount: 100_001 }))).json();
      expect(payout.confirmation).toMatchObject({ currency, amount: '1000.01' });
    }
  });

  it('formatMinorAmount writes minor units as a decimal string', () => {
    expect(formatMinorAmount(123_450, 2)).toBe('1234.50');
    expect(formatMinorAmount(5, 2)).toBe('0.05');
    expect(formatMinorAmount(100, 2)).toBe('1.00');
    expect(formatMinorAmount(7, 0)).toBe('7');
    expect(formatMinorAmount(10_000_000_000_000, 2)).toBe('100000000000.00');
  });

  it('changes the step at runtime with /_sandbox/settings; reset restores it and drops pending payouts', async () => {
    expect((await control('POST', '/_sandbox/settings', { settlement_step_ms: 0 })).json()).toEqual({ settlement_step_ms: 0 });
    expect((await create(payoutRequest())).json().status).toBe('completed');
    expect((await control('POST', '/_sandbox/settings', { settlement_step_ms: -5 })).statusCode).toBe(400);
    await control('POST', '/_sandbox/settings', { settlement_step_ms: STEP_MS });
    await create(payoutRequest({ reference: 'iin_2' }));
    await control('POST', '/_sandbox/reset');
    expect(await state('/_sandbox/settings')).toEqual({ settlement_step_ms: STEP_MS });
    expect(await state('/_sandbox/payouts')).toEqual({ payouts: [] });
    await sleep(STEP_MS + 50);
    expect(await events()).toEqual([]);
  });

  describe('callbacks', () => {
    it('posts the outcome raised by the step timer, signed with the webhook secret, retrying a failed delivery', async () => {
      const endpoint = await receiver([503]);
      await restart({ callbackUrl: endpoint.url, webhookSecret: 'whsec-payout-test' });
      await create(payoutRequest());
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 2,
      );
      const [event] = await events();
      for (const callback of endpoint.received) {
        expect(callback.body).toBe(JSON.stringify(event));
        expect(callback.headers['x-rail-event-id']).toBe(event.id);
        expect(hasValidRailSignature('whsec-payout-test', callback.headers['x-rail-signature'], callback.body)).toBe(true);
        expect(hasValidRailSignature(DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET, callback.headers['x-rail-signature'], callback.body)).toBe(false);
      }
      expect(event).toMatchObject({ type: 'payout.completed', data: { reference: 'iin_1', status: 'completed' } });
      // The receiver sees a post before the rail has its answer and records the delivery.
      const { deliveries } = await waitFor(
        () => state('/_sandbox/webhook'),
        (webhook) => webhook.deliveries.length === 2,
      );
      expect(deliveries.map((delivery: { status: number }) => delivery.status)).toEqual([503, 200]);
    });

    it('with a step of 0, posts after the answer, with the default secret', async () => {
      const endpoint = await receiver();
      await restart({ callbackUrl: endpoint.url, settlementStepMs: 0 });
      await control('POST', '/_sandbox/faults', { answerDelayMs: 100 });
      let answeredAt = 0;
      await create(payoutRequest({ recipient: recipient({ account_number: '19999' }) })).then(() => (answeredAt = Date.now()));
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );
      expect(endpoint.received[0].at).toBeGreaterThanOrEqual(answeredAt);
      expect(JSON.parse(endpoint.received[0].body)).toMatchObject({ type: 'payout.failed' });
      expect(hasValidRailSignature(DEFAULT_PAYOUT_RAIL_WEBHOOK_SECRET, endpoint.received[0].headers['x-rail-signature'], endpoint.received[0].body)).toBe(true);
    });
  });

  it('faults: failNext answers 5xx without creating anything', async () => {
    await control('POST', '/_sandbox/faults', { failNext: 1 });
    expect((await create(payoutRequest())).statusCode).toBe(503);
    expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
    expect((await create(payoutRequest())).statusCode).toBe(201);
  });
});
