import { startAppAtPublicUrl } from '../support/browser';
import { expectErrorBody } from '../support/contract';
import { DashboardClient, DashboardUser } from '../support/dashboard';
import { createIntent, fundIntent, moneyStackOptions, post } from '../support/money-stack';
import { startStack, Stack } from '../support/stack';
import { createBusiness, http } from '../support/test-app';

/**
 * What the dashboard reads of a merchant's money and businesses, with a session: the same objects
 * the merchant API answers with its key, another merchant's as not found, and the balance
 * transactions as CSV.
 */
describe('Dashboard reads of the merchant API objects', () => {
  let stack: Stack;
  let d: DashboardClient;
  let owner: DashboardUser;
  let apiKey: string;

  beforeAll(async () => {
    // At its public URL: the dashboard's changes carry the service's own Origin.
    stack = await startStack({ ...moneyStackOptions({ name: 'dashboard-reads' }), startApp: startAppAtPublicUrl });
    d = new DashboardClient(stack.t.baseUrl);
    owner = await d.signUp(d.email('reads'), 'Reads Co');
    apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
  });

  afterAll(() => stack?.close());

  const merchantGet = async (path: string) => (await http(stack.t.baseUrl, 'GET', `/api/merchant${path}`, { apiKey })).body.response;

  it('answers the balance, its transactions, businesses, payment intents and withdrawals as the merchant API does', async () => {
    const business = await createBusiness(stack.t, apiKey);
    const intent = await createIntent(stack.t, apiKey, { amount: 20000 });
    await fundIntent(stack.t, apiKey, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
    expect((await post(stack.t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {})).status).toBe(200);
    const withdrawal = await post(stack.t, apiKey, '/api/merchant/withdrawals', {
      merchantReference: 'reads-payout',
      amount: 5000,
      bankCode: '058',
      accountNumber: '0123456785',
      accountName: 'Reads Co',
    });
    expect(withdrawal.status).toBe(201);

    for (const [dashboardPath, merchantPath] of [
      ['/balance', '/balance'],
      ['/balance-transactions', '/balance-transactions'],
      ['/businesses', '/pobo/users'],
      [`/businesses/${business.poboUserId}`, `/pobo/users/${business.poboUserId}`],
      ['/payment-intents', '/payment-intents'],
      [`/payment-intents/${intent.paymentIntentId}`, `/payment-intents/${intent.paymentIntentId}`],
      ['/withdrawals', '/withdrawals'],
      [`/withdrawals/${withdrawal.body.response.withdrawalId}`, `/withdrawals/${withdrawal.body.response.withdrawalId}`],
      ['/international-payment-intents', '/international-payment-intents'],
    ]) {
      const viaSession = await d.as(owner, 'GET', dashboardPath);
      expect(viaSession.status).toBe(200);
      const viaKey = await merchantGet(merchantPath);
      // Withdrawals move on by themselves (the rail pays out): compare what does not.
      const stable = (value: unknown) =>
        JSON.stringify(value, (key, v: unknown) => (['status', 'updatedAt', 'completedAt', 'reserved', 'available'].includes(key) ? undefined : v));
      expect(stable(viaSession.body.response)).toBe(stable(viaKey));
    }
    // A page's next link names the dashboard route.
    const paged = await d.as(owner, 'GET', '/balance-transactions?limit=1');
    expect(paged.headers.get('link')).toContain('/api/dashboard/balance-transactions?limit=1&cursor=btx_');

    const csv = await http(stack.t.baseUrl, 'GET', '/api/dashboard/balance-transactions/export.csv', { headers: { cookie: owner.cookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('balanceTransactionId,type,amount,currency,sourceId,poboUserId,createdAt');
    const rows = (await merchantGet('/balance-transactions')) as { balanceTransactionId: string; amount: number }[];
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(rows.map((row) => row.balanceTransactionId));
    expect(lines.slice(1).map((line) => Number(line.split(',')[2]))).toEqual(rows.map((row) => row.amount));
  });

  it('lets an owner confirm a payment and withdraw with an Idempotency-Key (replayed, not repeated), audited; a developer may not', async () => {
    const intent = await createIntent(stack.t, apiKey, { amount: 30000 });
    await fundIntent(stack.t, apiKey, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
    const withKey = (key: string | undefined, path: string, body: unknown) =>
      http(stack.t.baseUrl, 'POST', `/api/dashboard${path}`, {
        body,
        headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf, origin: new URL(stack.t.baseUrl).origin, ...(key ? { 'idempotency-key': key } : {}) },
      });
    expectErrorBody(await withKey(undefined, `/payment-intents/${intent.paymentIntentId}/confirm`, {}), 400, 'idempotency_key_required');
    const key = `confirm-${intent.paymentIntentId}`;
    const [first, second] = await Promise.all([
      withKey(key, `/payment-intents/${intent.paymentIntentId}/confirm`, {}),
      withKey(key, `/payment-intents/${intent.paymentIntentId}/confirm`, {}),
    ]);
    expect([first.status, second.status].sort()).toEqual(expect.arrayContaining([200]));
    const again = await withKey(key, `/payment-intents/${intent.paymentIntentId}/confirm`, {});
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const payout = { merchantReference: `dash-${Date.now()}`, amount: 1000, bankCode: '058', accountNumber: '0123456785', accountName: 'Reads Co' };
    const created = await withKey(`wd-${payout.merchantReference}`, '/withdrawals', payout);
    expect(created.status).toBe(201);
    const replayed = await withKey(`wd-${payout.merchantReference}`, '/withdrawals', payout);
    expect(replayed.body.response.withdrawalId).toBe(created.body.response.withdrawalId);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    const entries = (await d.as(owner, 'GET', '/audit-log')).body.response as { action: string; objectId: string }[];
    expect(entries.filter((entry) => entry.action === 'payment_intent.confirmed' && entry.objectId === intent.paymentIntentId)).toHaveLength(1);
    expect(entries.filter((entry) => entry.action === 'withdrawal.created' && entry.objectId === created.body.response.withdrawalId)).toHaveLength(1);

    const developerEmail = d.email('dev');
    await d.as(owner, 'POST', '/members', { email: developerEmail, role: 'developer' });
    const developer = d.signedIn(
      await d.post('/invitations/accept', { token: (await stack.inbox.linkIn(developerEmail, /invited/)).token, password: 'correct horse battery staple' }),
      201,
    );
    const asDeveloper = await http(stack.t.baseUrl, 'POST', '/api/dashboard/withdrawals', {
      body: { ...payout, merchantReference: 'dev-payout' },
      headers: {
        cookie: developer.cookie,
        'x-csrf-token': developer.csrf,
        origin: new URL(stack.t.baseUrl).origin,
        'idempotency-key': `dev-${Date.now()}-key`,
      },
    });
    expectErrorBody(asDeveloper, 403, 'role_forbidden');
  });

  it('filters payment intents by status, reference and creation window, keeping the filters in the next page link', async () => {
    const tag = `filter-${Date.now()}`;
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createIntent(stack.t, apiKey, { amount: 1000 + i, merchantReference: `${tag}-${i}` }));
    await fundIntent(stack.t, apiKey, made[0].paymentIntentId, {}, (i) => i.status === 'funds_received');
    // The window starts at the first one's creation, as the service recorded it.
    const before = made[0].createdAt as string;
    const ids = (result: { body: { response: { paymentIntentId: string }[] } }) => result.body.response.map((intent) => intent.paymentIntentId);

    const funded = await d.as(owner, 'GET', `/payment-intents?status=funds_received&createdAfter=${encodeURIComponent(before)}`);
    expect(ids(funded)).toEqual([made[0].paymentIntentId]);
    const byReference = await d.as(owner, 'GET', `/payment-intents?merchantReference=${tag}-1`);
    expect(ids(byReference)).toEqual([made[1].paymentIntentId]);
    const window = await d.as(owner, 'GET', `/payment-intents?createdAfter=${encodeURIComponent(before)}&limit=2`);
    expect(ids(window)).toEqual([made[2].paymentIntentId, made[1].paymentIntentId]);
    const next = /<([^>]+)>; rel="next"/.exec(window.headers.get('link') ?? '')![1];
    expect(next).toContain('/api/dashboard/payment-intents?createdAfter=');
    const second = await http(stack.t.baseUrl, 'GET', new URL(next).pathname + new URL(next).search, { headers: { cookie: owner.cookie } });
    expect(ids(second)).toEqual([made[0].paymentIntentId]);
    expect((await d.as(owner, 'GET', `/payment-intents?createdBefore=${encodeURIComponent(before)}&merchantReference=${tag}-0`)).body.response).toEqual([]);
    // The merchant API takes the same filters.
    expect((await http(stack.t.baseUrl, 'GET', `/api/merchant/payment-intents?merchantReference=${tag}-2`, { apiKey })).body.response).toHaveLength(1);
    for (const bad of ['status=paid', 'createdAfter=yesterday', `merchantReference=${'x'.repeat(101)}`]) {
      expectErrorBody(await d.as(owner, 'GET', `/payment-intents?${bad}`), 400, 'validation_failed');
    }
  });

  it("answers another merchant's objects as not found, and refuses an API key", async () => {
    const other = await d.signUp(d.email('other'), 'Other Co');
    const business = await createBusiness(stack.t, apiKey);
    const intent = await createIntent(stack.t, apiKey);
    expectErrorBody(await d.as(other, 'GET', `/businesses/${business.poboUserId}`), 404, 'resource_not_found');
    expectErrorBody(await d.as(other, 'GET', `/payment-intents/${intent.paymentIntentId}`), 404, 'resource_not_found');
    expect((await d.as(other, 'GET', '/businesses')).body.response).toEqual([]);
    expectErrorBody(await http(stack.t.baseUrl, 'GET', '/api/dashboard/businesses', { apiKey }), 401, 'session_required');
  });
});
