import { randomBytes } from 'node:crypto';
import { nubanFor } from '../../src/common/banking/nuban';
import { EventsService } from '../../src/modules/events';
import { expectErrorBody } from '../support/contract';
import { eventually } from '../support/poll';
import { createIntent, fundedMerchant, fundIntent, getIntent, MoneyStack, post, startMoneyStack } from '../support/money-stack';
import { http, TestApp } from '../support/test-app';

const EVENTS = '/api/merchant/events';
const WD = '/api/merchant/withdrawals';
const withdrawal = (amount: number, [bankCode, accountNumber] = ['044', nubanFor('044', '069000003')]) => ({
  merchantReference: `wd-${randomBytes(6).toString('hex')}`,
  amount,
  bankCode,
  accountNumber,
  accountName: 'Acme Stores Ltd',
});

/**
 * Events as the merchant API lists them, written by the changes themselves against a real
 * PostgreSQL, the sandbox bank rail calling back and the worker: each carries its object exactly
 * as the object's GET answered right after the change, and a change that rolled back has none.
 */
describe('Events', () => {
  let stack: MoneyStack;
  let t: TestApp;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'events' });
    t = stack.t;
  });

  afterAll(() => stack?.close());

  const eventsOf = async (apiKey: string, query = ''): Promise<any[]> => {
    const result = await http(t.baseUrl, 'GET', `${EVENTS}${query}`, { apiKey });
    expect(result.status).toBe(200);
    return result.body.response;
  };
  const about = async (apiKey: string, objectId: string) => (await eventsOf(apiKey)).filter((e) => e.data.object[idKey(e.type)] === objectId).reverse();
  const idKey = (type: string) => (type.startsWith('payment_intent.') ? 'paymentIntentId' : 'withdrawalId');

  it("records a payment intent's life, each event carrying the intent as its GET answered right after that change", async () => {
    const { apiKey } = await t.createMerchant();
    const created = await createIntent(t, apiKey, { amount: 700 });
    const id = created.paymentIntentId;
    const afterCreate = await getIntent(t, apiKey, id);
    const afterFunding = await fundIntent(t, apiKey, id, {}, (i) => i.status === 'funds_received');
    const confirmed = await post(t, apiKey, `/api/merchant/payment-intents/${id}/confirm`, {});
    expect(confirmed.status).toBe(200);
    const afterConfirm = await getIntent(t, apiKey, id);

    const events = await about(apiKey, id);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.created', 'payment_intent.funds_received', 'payment_intent.succeeded']);
    expect(events.map((e) => e.data.object)).toEqual([afterCreate, afterFunding, afterConfirm]);
    // Key order too: the object is the GET's JSON as it was written.
    expect(Object.keys(events[2].data.object)).toEqual(Object.keys(afterConfirm));
    const versions = events.map((e) => e.objectVersion);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(3);
    for (const event of events) {
      expect(event.eventId).toMatch(/^evt_[0-9a-f]{24}$/);
      const one = await http(t.baseUrl, 'GET', `${EVENTS}/${event.eventId}`, { apiKey });
      expect(one.status).toBe(200);
      expect(one.body.response).toEqual(event);
    }
  });

  it('records a transfer that did not match as payment_returned, the intent carrying the returned payment', async () => {
    const { apiKey } = await t.createMerchant();
    const intent = await createIntent(t, apiKey, { amount: 800 });
    const returned = await fundIntent(t, apiKey, intent.paymentIntentId, { amount: 799 });
    expect(returned.payments).toEqual([expect.objectContaining({ status: 'returned', returnReason: 'amount_mismatch' })]);
    const events = await eventually(
      () => about(apiKey, intent.paymentIntentId),
      (found) => found.length === 2,
      5_000,
      50,
    );
    expect(events.map((e) => e.type)).toEqual(['payment_intent.created', 'payment_intent.payment_returned']);
    expect(events[1].data.object.payments).toEqual([expect.objectContaining({ status: 'returned', returnReason: 'amount_mismatch' })]);
  });

  it('records a withdrawal created then succeeded, one created then failed, and none for one refused (its change rolled back)', async () => {
    const { apiKey } = await fundedMerchant(t, 5_000);
    const ok = await post(t, apiKey, WD, withdrawal(1_000));
    const bad = await post(t, apiKey, WD, withdrawal(1_000, ['058', '0000000025']));
    expect([ok.status, bad.status]).toEqual([201, 201]);
    const refused = await post(t, apiKey, WD, withdrawal(1_000_000));
    expect(refused.status).toBe(409);

    const final = async (id: string, status: string) =>
      eventually(
        async () => (await http(t.baseUrl, 'GET', `${WD}/${id}`, { apiKey })).body.response,
        (w) => w.status === status,
        10_000,
        50,
      );
    const succeeded = await final(ok.body.response.withdrawalId, 'succeeded');
    const failed = await final(bad.body.response.withdrawalId, 'failed');
    const okEvents = await about(apiKey, succeeded.withdrawalId);
    expect(okEvents.map((e) => e.type)).toEqual(['withdrawal.created', 'withdrawal.succeeded']);
    // The withdrawal as it was stored: what GET answers now, before its payout.
    expect(okEvents[0].data.object).toEqual({ ...succeeded, status: 'pending', updatedAt: succeeded.createdAt, completedAt: null });
    expect(okEvents[1].data.object).toEqual(succeeded);
    const badEvents = await about(apiKey, failed.withdrawalId);
    expect(badEvents.map((e) => e.type)).toEqual(['withdrawal.created', 'withdrawal.failed']);
    expect(badEvents[1].data.object).toEqual(failed);
    expect((await eventsOf(apiKey, '?type=withdrawal.created')).map((e) => e.data.object.withdrawalId).sort()).toEqual(
      [succeeded.withdrawalId, failed.withdrawalId].sort(),
    );
  });

  it('filters by repeated type and by createdAfter, pages with a cursor, and keeps each merchant to its own', async () => {
    const { apiKey } = await t.createMerchant();
    const other = await t.createMerchant();
    for (let i = 0; i < 3; i++) await createIntent(t, apiKey, { amount: 100 + i });
    const all = await eventsOf(apiKey);
    expect(all).toHaveLength(3);
    expect(await eventsOf(apiKey, '?type=payment_intent.created&type=withdrawal.created')).toEqual(all);
    expect(await eventsOf(apiKey, '?type=withdrawal.created')).toEqual([]);
    expect(await eventsOf(apiKey, `?createdAfter=${encodeURIComponent(all[0].createdAt)}`)).toEqual(all.filter((e) => e.createdAt >= all[0].createdAt));
    expect(await eventsOf(apiKey, '?createdAfter=2100-01-01T00:00:00Z')).toEqual([]);

    const first = await http(t.baseUrl, 'GET', `${EVENTS}?limit=2`, { apiKey });
    expect(first.body.response).toEqual(all.slice(0, 2));
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const { pathname, search } = new URL(next!);
    expect((await http(t.baseUrl, 'GET', `${pathname}${search}`, { apiKey })).body.response).toEqual(all.slice(2));

    expect(await eventsOf(other.apiKey)).toEqual([]);
    const foreign = await http(t.baseUrl, 'GET', `${EVENTS}/${all[0].eventId}`, { apiKey: other.apiKey });
    expectErrorBody(foreign, 404, 'resource_not_found');
  });

  it('refuses an unknown type or a malformed createdAfter with 400, and an unknown event with 404', async () => {
    const { apiKey } = await t.createMerchant();
    for (const query of ['?type=payment_intent.nope', '?type=payment_intent.created&type=', '?createdAfter=yesterday']) {
      const result = await http(t.baseUrl, 'GET', `${EVENTS}${query}`, { apiKey });
      expectErrorBody(result, 400, 'validation_failed');
    }
    for (const id of ['evt_000000000000000000000000', 'nope']) {
      const result = await http(t.baseUrl, 'GET', `${EVENTS}/${id}`, { apiKey });
      expectErrorBody(result, 404, 'resource_not_found');
    }
  });

  it('removes events past the 30 days it keeps them, and never rewrites one', async () => {
    const { apiKey, merchantId } = await t.createMerchant();
    await createIntent(t, apiKey, { amount: 100 });
    const [kept] = await eventsOf(apiKey);
    // The same event, as if written 31 days ago.
    await stack.pg.query(
      `INSERT INTO events (id, merchant_id, type, object_id, data, created_at) VALUES ($1, $2, 'payment_intent.created', $3, $4, now() - interval '31 days')`,
      ['evt_0123456789abcdef01234567', merchantId, kept.data.object.paymentIntentId, JSON.stringify(kept.data.object)],
    );
    expect(await eventsOf(apiKey)).toHaveLength(2);
    await t.app.get(EventsService).prune();
    expect(await eventsOf(apiKey)).toEqual([kept]);
    await expect(stack.pg.query(`UPDATE events SET type = 'withdrawal.created' WHERE id = $1`, [kept.eventId])).rejects.toThrow('events are never updated');
  });
});
