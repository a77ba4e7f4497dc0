import { setTimeout as sleep } from 'node:timers/promises';
import { hasValidRailSignature, waitFor } from '../common/callback-receiver';
import { SandboxUnderTest } from '../common/sandbox-under-test';
import {
  BRIDGE_RAIL_RATES,
  BridgeRailServerOptions,
  COMPLIANCE_REJECTED_SUFFIX,
  corridorRoutes,
  createBridgeRailServer,
  DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET,
  EURO_AREA_COUNTRIES,
  RETURN_REFUSED_SUFFIX,
  REVIEW_HELD_SUFFIX,
  signRailPayload,
} from './bridge-rail.server';

const API_KEY = 'test-bridge-rail-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const STEP_MS = 80;

const recipient = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Jane Doe',
  email: 'jane@example.com',
  country: 'US',
  bank_code_type: 'routing_number',
  bank_code: '021000021',
  account_number: '123456789',
  ...overrides,
});

const transferRequest = (overrides: Record<string, unknown> = {}) => ({
  reference: 'iin_1',
  route_type: 'ngn',
  source_amount: 155_075_000,
  destination_currency: 'USD',
  destination_amount: 100_000,
  recipient: recipient(),
  ...overrides,
});

describe('bridge rail sandbox', () => {
  const server = (options: Partial<BridgeRailServerOptions>) =>
    createBridgeRailServer({ apiKey: API_KEY, settlementStepMs: STEP_MS, deliveryRetryMs: 10, ...options });
  const sandbox = new SandboxUnderTest(server, API_KEY);
  const { restart, receiver, get, control, state, events } = sandbox;
  const create = (body: Record<string, unknown>, idempotencyKey: string | null = String(body.reference), headers: Record<string, string> = AUTH) =>
    sandbox.post('/v1/transfers', body, idempotencyKey, headers);

  beforeEach(() => sandbox.start());
  afterEach(() => sandbox.stop());

  it('answers /health without auth', async () => {
    const res = await control('GET', '/health');
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer sandbox-bank-rail-key' }],
  ])('refuses %s with 401 on every /v1 route', async (_name, headers: Record<string, string>) => {
    expect((await create(transferRequest(), 'iin_1', headers)).statusCode).toBe(401);
    for (const url of ['/v1/rates?country=US&currency=USD', '/v1/transfers/iin_1', '/v1/events']) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
    }
    expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
  });

  describe('rates', () => {
    const rates = async (country: string, currency: string) => get(`/v1/rates?country=${country}&currency=${currency}`);

    it('quotes the fixed table: US/USD by ngn and usdc, in that order', async () => {
      const res = await rates('US', 'USD');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        country: 'US',
        currency: 'USD',
        routes: [
          { route_type: 'ngn', rate: '1550.75', fixed_fee: 50_000, fee_bps: 150 },
          { route_type: 'usdc', rate: '1542.3', fixed_fee: 25_000, fee_bps: 80 },
        ],
      });
    });

    it.each([
      ['GB', 'GBP', ['ngn']],
      ['GH', 'GHS', ['ngn']],
      ['KE', 'KES', ['ngn']],
      ...EURO_AREA_COUNTRIES.map((country) => [country, 'EUR', ['ngn', 'usdc']] as [string, string, string[]]),
    ])('serves %s/%s by %j, as BRIDGE_RAIL_RATES says', async (country, currency, routeTypes) => {
      const { routes } = (await rates(country, currency)).json();
      expect(routes.map((route: { route_type: string }) => route.route_type)).toEqual(routeTypes);
      expect(routes).toEqual(BRIDGE_RAIL_RATES[currency as keyof typeof BRIDGE_RAIL_RATES].routes);
      expect(routes).toEqual(corridorRoutes(country, currency));
    });

    it('has 20 euro-area countries and rates with at most 8 decimal places', () => {
      expect(new Set(EURO_AREA_COUNTRIES).size).toBe(20);
      for (const corridor of Object.values(BRIDGE_RAIL_RATES)) {
        for (const route of corridor.routes) {
          expect(route.rate).toMatch(/^\d+(\.\d{1,8})?$/);
          expect(Number.isInteger(route.fixed_fee) && Number.isInteger(route.fee_bps)).toBe(true);
        }
      }
    });

    it.each([
      ['US', 'EUR'],
      ['GB', 'USD'],
      ['NG', 'NGN'],
      ['JP', 'JPY'],
      ['ZZ', 'ZZZ'],
    ])('answers an unsupported corridor %s/%s with no routes', async (country, currency) => {
      const res = await rates(country, currency);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ country, currency, routes: [] });
    });

    it.each([
      ['country=US'],
      ['currency=USD'],
      ['country=us&currency=USD'],
      ['country=USA&currency=USD'],
      ['country=US&currency=usd'],
      ['country=US&currency=US'],
    ])('refuses ?%s with 400', async (query) => {
      const res = await get(`/v1/rates?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'bad_request', message: expect.any(String) });
    });
  });

  describe('transfers', () => {
    it('creates a pending transfer that completes after the settlement step, raising transfer.completed', async () => {
      const res = await create(transferRequest());
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toEqual({
        id: expect.stringMatching(/^btr_[0-9a-f]{24}$/),
        reference: 'iin_1',
        route_type: 'ngn',
        source_amount: 155_075_000,
        source_currency: 'NGN',
        destination_currency: 'USD',
        destination_amount: 100_000,
        rate: '1550.75',
        recipient: recipient(),
        status: 'pending',
        failure_code: null,
        failure_message: null,
        return: null,
        created_at: expect.any(String),
        updated_at: created.created_at,
      });
      expect((await get('/v1/transfers/iin_1')).json()).toEqual(created);
      expect(await events()).toEqual([]);

      const completed = await waitFor(
        async () => (await get('/v1/transfers/iin_1')).json(),
        (transfer) => transfer.status === 'completed',
      );
      expect(completed).toEqual({ ...created, status: 'completed', updated_at: expect.any(String) });
      expect(Date.parse(completed.updated_at) - Date.parse(created.created_at)).toBeGreaterThanOrEqual(STEP_MS - 5);
      expect(await events()).toEqual([
        { id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type: 'transfer.completed', created_at: expect.any(String), data: completed },
      ]);
    });

    it('stays pending for the whole step, not longer', async () => {
      await restart({ settlementStepMs: 300 });
      await create(transferRequest());
      await sleep(200);
      expect((await get('/v1/transfers/iin_1')).json().status).toBe('pending');
      await waitFor(
        async () => (await get('/v1/transfers/iin_1')).json().status,
        (status) => status === 'completed',
        1000,
      );
    });

    it('with a step of 0 creates the transfer completed and raises transfer.completed at once', async () => {
      await restart({ settlementStepMs: 0 });
      const res = await create(transferRequest({ route_type: 'usdc' }));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ status: 'completed', route_type: 'usdc', rate: '1542.3' });
      expect((await events()).map((event: { type: string }) => event.type)).toEqual(['transfer.completed']);
    });

    it('answers 404 for an unknown reference', async () => {
      const res = await get('/v1/transfers/iin_unknown');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found' });
    });

    it('is idempotent by reference: a retry answers 200 with the same transfer, never a second one', async () => {
      const first = await create(transferRequest());
      const retry = await create(transferRequest({ destination_amount: 5 }));
      expect(first.statusCode).toBe(201);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect(await state('/_sandbox/calls?reference=iin_1')).toEqual({ createRequests: 2, created: 1 });
      expect(await state('/_sandbox/calls?reference=iin_other')).toEqual({ createRequests: 0, created: 0 });
      expect((await state('/_sandbox/transfers')).transfers).toHaveLength(1);
    });

    it('creates exactly one transfer for 5 concurrent identical requests', async () => {
      const responses = await Promise.all(Array.from({ length: 5 }, () => create(transferRequest())));
      expect(responses.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(responses.map((res) => res.json().id)).size).toBe(1);
      expect(await state('/_sandbox/calls?reference=iin_1')).toEqual({ createRequests: 5, created: 1 });
    });

    it('counts calls per reference and in total', async () => {
      await create(transferRequest());
      await create(transferRequest({ reference: 'iin_2' }));
      await create(transferRequest({ reference: 'iin_2' }));
      expect(await state('/_sandbox/calls?reference=iin_2')).toEqual({ createRequests: 2, created: 1 });
      expect(await state('/_sandbox/calls')).toEqual({ createRequests: 3, created: 2 });
      expect((await control('GET', '/_sandbox/calls?reference=')).statusCode).toBe(400);
    });

    it.each([
      ['missing', null],
      ['empty', ''],
    ])('refuses an Idempotency-Key that is %s with 400', async (_name, key) => {
      const res = await create(transferRequest(), key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_idempotency_key' });
    });

    it('refuses an Idempotency-Key other than the reference with 422', async () => {
      const res = await create(transferRequest(), 'another-key');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field: 'reference', message: 'must equal the Idempotency-Key header' }] });
      expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
    });

    it.each([
      ['route_type is unknown', { route_type: 'swift' }, 'route_type'],
      ['the route is not offered for the corridor', { route_type: 'usdc', destination_currency: 'GBP', recipient: recipient({ country: 'GB' }) }, 'route_type'],
      ['the currency is not served in the country', { destination_currency: 'EUR' }, 'destination_currency'],
      ['destination_currency is lower case', { destination_currency: 'usd' }, 'destination_currency'],
      ['source_amount is 0', { source_amount: 0 }, 'source_amount'],
      ['source_amount is a string', { source_amount: '100' }, 'source_amount'],
      ['destination_amount is fractional', { destination_amount: 10.5 }, 'destination_amount'],
      ['recipient is missing', { recipient: undefined }, 'recipient'],
      ['recipient.full_name is empty', { recipient: recipient({ full_name: ' ' }) }, 'recipient.full_name'],
      ['recipient.email is not an address', { recipient: recipient({ email: 'nope' }) }, 'recipient.email'],
      ['recipient.country is not alpha-2', { recipient: recipient({ country: 'USA' }) }, 'recipient.country'],
      ['recipient.bank_code_type is unknown', { recipient: recipient({ bank_code_type: 'sort_code' }) }, 'recipient.bank_code_type'],
      ['a routing number is not 9 digits', { recipient: recipient({ bank_code: '12345' }) }, 'recipient.bank_code'],
      ['a BIC is malformed', { recipient: recipient({ bank_code_type: 'swift', bank_code: 'CHAS US33' }) }, 'recipient.bank_code'],
      [
        'an IBAN is malformed',
        { destination_currency: 'EUR', recipient: recipient({ country: 'DE', bank_code_type: 'iban', bank_code: 'DE89', account_number: null }) },
        'recipient.bank_code',
      ],
      [
        'an IBAN comes with a malformed account number',
        {
          destination_currency: 'EUR',
          recipient: recipient({ country: 'DE', bank_code_type: 'iban', bank_code: 'DE89370400440532013000', account_number: '12 34' }),
        },
        'recipient.account_number',
      ],
      ['an other bank code has a leading space', { recipient: recipient({ bank_code_type: 'other', bank_code: ' 12-34-56' }) }, 'recipient.bank_code'],
      ['the account number is missing', { recipient: recipient({ account_number: null }) }, 'recipient.account_number'],
    ])('refuses a request whose %s with 422', async (_name, overrides, field) => {
      const res = await create(transferRequest(overrides));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'invalid_request', details: [{ field, message: expect.any(String) }] });
      expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
    });

    it('refuses a body that is not an object with 422, malformed JSON with 400', async () => {
      const array = await sandbox.app.inject({
        method: 'POST',
        url: '/v1/transfers',
        headers: { ...AUTH, 'idempotency-key': 'k', 'content-type': 'application/json' },
        payload: '[]',
      });
      expect(array.statusCode).toBe(422);
      const broken = await sandbox.app.inject({
        method: 'POST',
        url: '/v1/transfers',
        headers: { ...AUTH, 'idempotency-key': 'k', 'content-type': 'application/json' },
        payload: '{',
      });
      expect(broken.statusCode).toBe(400);
    });
  });

  describe('returns', () => {
    const ask = (reference = 'iin_1') => sandbox.post(`/v1/transfers/${reference}/return`, {}, null, AUTH);
    const returned = () =>
      waitFor(
        async () => (await get('/v1/transfers/iin_1')).json(),
        (transfer) => transfer.return?.status !== 'pending',
      );

    it('returns a completed transfer converted back at the rate less the spread, after the step, raising transfer.returned once', async () => {
      await create(transferRequest());
      await waitFor(
        async () => (await get('/v1/transfers/iin_1')).json(),
        (transfer) => transfer.status === 'completed',
      );
      const asked = await ask();
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toMatchObject({ status: 'completed', return: { status: 'pending', amount: null } });
      const done = await returned();
      // 1,000.00 USD at 1550.75 less 0.5 %: 1,542,996.25 NGN (rounded down to the kobo).
      expect(done).toMatchObject({ status: 'returned', return: { status: 'completed', amount: 154_299_625, failure_code: null } });
      expect((await events()).map((e: { type: string }) => e.type)).toEqual(['transfer.completed', 'transfer.returned']);
      expect((await events())[1].data).toEqual(done);
      // A retry answers the return as it is, never a second one.
      const again = await ask();
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(done);
    });

    it('cancels a pending or held transfer and gives back all that was sent; it never completes then', async () => {
      await create(transferRequest());
      await create(transferRequest({ reference: 'iin_2', recipient: recipient({ account_number: `9${REVIEW_HELD_SUFFIX}` }) }), 'iin_2');
      expect((await ask()).statusCode).toBe(202);
      expect((await ask('iin_2')).statusCode).toBe(202);
      const done = await returned();
      expect(done).toMatchObject({ status: 'returned', return: { status: 'completed', amount: 155_075_000 } });
      await sleep(STEP_MS + 50);
      expect((await get('/v1/transfers/iin_1')).json().status).toBe('returned');
      expect((await get('/v1/transfers/iin_2')).json()).toMatchObject({ status: 'returned', return: { amount: 155_075_000 } });
      expect((await events()).map((e: { type: string }) => e.type).sort()).toEqual(['transfer.returned', 'transfer.returned']);
    });

    it(`refuses to return a transfer to an account ending ${RETURN_REFUSED_SUFFIX}, raising transfer.return_refused; a rejected transfer holds nothing to return`, async () => {
      await create(transferRequest({ recipient: recipient({ account_number: `9${RETURN_REFUSED_SUFFIX}` }) }));
      await ask();
      const done = await returned();
      expect(done).toMatchObject({ status: 'pending', return: { status: 'refused', amount: null, failure_code: 'return_refused' } });
      expect((await events()).map((e: { type: string }) => e.type)).toEqual(['transfer.return_refused']);
      await create(transferRequest({ reference: 'iin_2', recipient: recipient({ account_number: `9${COMPLIANCE_REJECTED_SUFFIX}` }) }), 'iin_2');
      expect((await ask('iin_2')).statusCode).toBe(409);
      expect((await ask('iin_404')).statusCode).toBe(404);
    });
  });

  describe(`compliance screening: an account or IBAN ending ${COMPLIANCE_REJECTED_SUFFIX}`, () => {
    it.each([
      ['an account number', transferRequest({ recipient: recipient({ account_number: '987650000' }) })],
      [
        'an IBAN',
        transferRequest({
          destination_currency: 'EUR',
          recipient: recipient({ country: 'DE', bank_code_type: 'iban', bank_code: 'DE89370400440532010000', account_number: null }),
        }),
      ],
    ])('rejects %s at once, raising transfer.rejected, and never completes it', async (_name, body) => {
      const res = await create(body);
      expect(res.statusCode).toBe(201);
      const rejected = res.json();
      expect(rejected).toMatchObject({ status: 'rejected', failure_code: 'compliance_rejected', failure_message: expect.any(String) });
      expect(await events()).toEqual([expect.objectContaining({ type: 'transfer.rejected', data: rejected })]);
      await sleep(STEP_MS + 50);
      expect((await get('/v1/transfers/iin_1')).json()).toEqual(rejected);
      expect(await events()).toHaveLength(1);
      // A retry answers the rejection, it does not screen again.
      expect((await create(body)).json()).toEqual(rejected);
    });

    it('screens the IBAN, not an account number given with it', async () => {
      await restart({ settlementStepMs: 0 });
      const iban = (bank_code: string, account_number: string) => recipient({ country: 'DE', bank_code_type: 'iban', bank_code, account_number });
      const passed = await create(transferRequest({ destination_currency: 'EUR', recipient: iban('DE89370400440532013000', '50000') }));
      expect(passed.json()).toMatchObject({ status: 'completed', recipient: { account_number: '50000' } });
      const rejected = await create(transferRequest({ reference: 'iin_2', destination_currency: 'EUR', recipient: iban('DE89370400440532010000', '12345') }));
      expect(rejected.json().status).toBe('rejected');
    });

    it('accepts any local code for other, as the API does (a sort code with spaces)', async () => {
      await restart({ settlementStepMs: 0 });
      const res = await create(
        transferRequest({
          destination_currency: 'GBP',
          recipient: recipient({ country: 'GB', bank_code_type: 'other', bank_code: '20 00 00', account_number: '55779911' }),
        }),
      );
      expect(res.statusCode).toBe(201);
    });

    it(`holds a recipient ending ${REVIEW_HELD_SUFFIX} in compliance review for ever, with no event, whatever the step`, async () => {
      for (const step of [STEP_MS, 0]) {
        await restart({ settlementStepMs: step });
        const res = await create(transferRequest({ recipient: recipient({ account_number: `5678${REVIEW_HELD_SUFFIX}` }) }));
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ status: 'in_review', failure_code: null });
        await sleep(STEP_MS + 50);
        expect((await get('/v1/transfers/iin_1')).json().status).toBe('in_review');
        expect(await events()).toEqual([]);
      }
    });

    it('passes an account that only contains 0000', async () => {
      await restart({ settlementStepMs: 0 });
      expect((await create(transferRequest({ recipient: recipient({ account_number: '100001' }) }))).json().status).toBe('completed');
    });
  });

  describe('settings', () => {
    it('changes the step at runtime for transfers created afterwards; reset restores it', async () => {
      expect(await state('/_sandbox/settings')).toEqual({ settlement_step_ms: STEP_MS });
      const set = await control('POST', '/_sandbox/settings', { settlement_step_ms: 0 });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ settlement_step_ms: 0 });
      expect((await create(transferRequest())).json().status).toBe('completed');

      await control('POST', '/_sandbox/settings', { settlement_step_ms: 5_000 });
      expect((await create(transferRequest({ reference: 'iin_2' }))).json().status).toBe('pending');
      await control('POST', '/_sandbox/reset');
      expect(await state('/_sandbox/settings')).toEqual({ settlement_step_ms: STEP_MS });
      expect((await get('/v1/transfers/iin_2')).statusCode).toBe(404);
    });

    it.each([[{ settlement_step_ms: -1 }], [{ settlement_step_ms: 1.5 }], [{ settlement_step_ms: '10' }], [{ settlement_step_ms: 3_600_001 }], [{ step: 1 }]])(
      'refuses %j with 400',
      async (body) => {
        const res = await control('POST', '/_sandbox/settings', body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'invalid_settings', details: [expect.objectContaining({ field: expect.any(String) })] });
        expect(await state('/_sandbox/settings')).toEqual({ settlement_step_ms: STEP_MS });
      },
    );

    it('refuses bad options', () => {
      expect(() => createBridgeRailServer({ apiKey: API_KEY, settlementStepMs: -1 })).toThrow(/settlementStepMs/);
      expect(() => createBridgeRailServer({ apiKey: API_KEY, callbackUrl: 'nope' })).toThrow(/callbackUrl/);
      expect(() => createBridgeRailServer({ apiKey: '' })).toThrow(/apiKey/);
    });
  });

  describe('events and callbacks', () => {
    it('lists events in order, after an id and by pages', async () => {
      await restart({ settlementStepMs: 0 });
      await create(transferRequest());
      await create(transferRequest({ reference: 'iin_2', recipient: recipient({ account_number: '10000' }) }));
      await create(transferRequest({ reference: 'iin_3' }));
      const all = await events();
      expect(all.map((event: { type: string; data: { reference: string } }) => [event.type, event.data.reference])).toEqual([
        ['transfer.completed', 'iin_1'],
        ['transfer.rejected', 'iin_2'],
        ['transfer.completed', 'iin_3'],
      ]);
      expect((await get(`/v1/events?after=${all[0].id}&limit=1`)).json()).toEqual({ events: [all[1]], has_more: true });
      expect((await get(`/v1/events?after=${all[1].id}`)).json()).toEqual({ events: [all[2]], has_more: false });
      expect((await get('/v1/events?after=evt_nope')).statusCode).toBe(400);
      expect((await get('/v1/events?limit=0')).statusCode).toBe(400);
    });

    it('posts each event, signed with the webhook secret, after the answer that caused it', async () => {
      const endpoint = await receiver();
      await restart({ callbackUrl: endpoint.url, webhookSecret: 'whsec-bridge-test', settlementStepMs: 0 });
      await control('POST', '/_sandbox/faults', { answerDelayMs: 100 });
      let answeredAt = 0;
      const transfer = (await create(transferRequest()).then((res) => ((answeredAt = Date.now()), res))).json();
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 1,
      );
      const [callback] = endpoint.received;
      const [event] = await events();
      expect(callback.at).toBeGreaterThanOrEqual(answeredAt);
      expect(event).toMatchObject({ type: 'transfer.completed', data: transfer });
      expect(callback.body).toBe(JSON.stringify(event));
      expect(callback.headers['content-type']).toBe('application/json');
      expect(callback.headers['x-rail-event-id']).toBe(event.id);
      expect(hasValidRailSignature('whsec-bridge-test', callback.headers['x-rail-signature'], callback.body)).toBe(true);
      expect(hasValidRailSignature(DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET, callback.headers['x-rail-signature'], callback.body)).toBe(false);
      const t = Number(/^t=(\d+),/.exec(String(callback.headers['x-rail-signature']))?.[1]);
      expect(signRailPayload('whsec-bridge-test', t, callback.body)).toBe(callback.headers['x-rail-signature']);
    });

    it('posts the completion raised by the step timer with the default secret, and retries a failed delivery', async () => {
      const endpoint = await receiver([500]);
      await restart({ callbackUrl: endpoint.url });
      const created = (await create(transferRequest())).json();
      await waitFor(
        () => endpoint.received.length,
        (count) => count === 2,
      );
      const bodies = endpoint.received.map((callback) => JSON.parse(callback.body));
      expect(bodies.map((event) => [event.type, event.data.id, event.data.status])).toEqual([
        ['transfer.completed', created.id, 'completed'],
        ['transfer.completed', created.id, 'completed'],
      ]);
      endpoint.received.forEach((callback) =>
        expect(hasValidRailSignature(DEFAULT_BRIDGE_RAIL_WEBHOOK_SECRET, callback.headers['x-rail-signature'], callback.body)).toBe(true),
      );
      // The receiver sees a post before the rail has its answer and records the delivery.
      const { deliveries } = await waitFor(
        () => state('/_sandbox/webhook'),
        (webhook) => webhook.deliveries.length === 2,
      );
      expect(deliveries.map((delivery: { attempt: number; status: number }) => [delivery.attempt, delivery.status])).toEqual([
        [1, 500],
        [2, 200],
      ]);
    });

    it('drop_next loses an event (still listed); /_sandbox/deliver re-sends it', async () => {
      const endpoint = await receiver();
      await restart({ settlementStepMs: 0 });
      await control('POST', '/_sandbox/webhook', { url: endpoint.url, drop_next: 1 });
      await create(transferRequest());
      const [event] = await events();
      await sleep(50);
      expect(endpoint.received).toHaveLength(0);
      expect((await control('POST', `/_sandbox/deliver/${event.id}`)).json()).toEqual({ status: 200 });
      expect(endpoint.received.map((callback) => callback.body)).toEqual([JSON.stringify(event)]);
    });
  });

  describe('faults', () => {
    it('failNext answers 5xx without creating; latencyMs delays', async () => {
      await control('POST', '/_sandbox/faults', { failNext: 1, failStatus: 502 });
      const failed = await create(transferRequest());
      expect(failed.statusCode).toBe(502);
      expect(await state('/_sandbox/calls?reference=iin_1')).toEqual({ createRequests: 0, created: 0 });
      await control('POST', '/_sandbox/faults', { latencyMs: 100 });
      const started = Date.now();
      expect((await create(transferRequest())).statusCode).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    });

    it('over a real socket: a client that gave up during answerDelayMs finds the one transfer by retrying', async () => {
      await restart({ settlementStepMs: 60_000 });
      const base = await sandbox.listen();
      const post = (signal: AbortSignal) =>
        fetch(`${base}/v1/transfers`, {
          method: 'POST',
          headers: { ...AUTH, 'idempotency-key': 'iin_1', 'content-type': 'application/json' },
          body: JSON.stringify(transferRequest()),
          signal,
        });
      await control('POST', '/_sandbox/faults', { answerDelayMs: 2_000 });
      await expect(post(AbortSignal.timeout(150))).rejects.toMatchObject({ name: 'TimeoutError' });
      await control('DELETE', '/_sandbox/faults');
      const retry = await post(AbortSignal.timeout(5_000));
      expect(retry.status).toBe(200);
      expect(((await retry.json()) as { status: string }).status).toBe('pending');
      expect(await state('/_sandbox/calls?reference=iin_1')).toEqual({ createRequests: 2, created: 1 });
    });
  });

  it('reset clears transfers, calls, events and the webhook state', async () => {
    const endpoint = await receiver();
    await restart({ callbackUrl: endpoint.url });
    await create(transferRequest());
    await control('POST', '/_sandbox/webhook', { drop_next: 2 });
    expect((await control('POST', '/_sandbox/reset')).json()).toEqual({ status: 'reset' });
    expect(await state('/_sandbox/transfers')).toEqual({ transfers: [] });
    expect(await state('/_sandbox/calls')).toEqual({ createRequests: 0, created: 0 });
    expect(await state('/_sandbox/events')).toEqual({ events: [] });
    expect(await state('/_sandbox/webhook')).toEqual({ url: endpoint.url, drop_next: 0, deliveries: [] });
    // The pending transfer's timer went with it.
    await sleep(STEP_MS + 50);
    expect(await events()).toEqual([]);
    expect(endpoint.received).toHaveLength(0);
  });
});
