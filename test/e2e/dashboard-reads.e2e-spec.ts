import { startAppAtPublicUrl } from '../support/browser';
import { expectErrorBody } from '../support/contract';
import { DashboardClient, DashboardUser } from '../support/dashboard';
import { createInternationalIntent, createQuote, intentBody, PIPELINE, pollIntent, verifiedBusiness } from '../support/international';
import { acceptAgreementDirectly } from '../support/kyb-fixtures';
import { createIntent, fundBalance, fundIntent, getIntent, moneyStackOptions, MoneyStack, post } from '../support/money-stack';
import { activeNairaBusiness } from '../support/naira';
import { eventually } from '../support/poll';
import { startStack } from '../support/stack';
import { createBusiness, http } from '../support/test-app';

/**
 * What the dashboard reads of a merchant's money and businesses, with a session: the same objects
 * the merchant API answers with its key, another merchant's as not found, and the balance
 * transactions as CSV.
 */
describe('Dashboard reads of the merchant API objects', () => {
  let stack: MoneyStack;
  let d: DashboardClient;
  let owner: DashboardUser;
  let apiKey: string;

  beforeAll(async () => {
    // At its public URL: the dashboard's changes carry the service's own Origin.
    // The cross-border rails too, so quotes are priced and international intents settle.
    const started = await startStack({
      ...moneyStackOptions({ name: 'dashboard-reads' }),
      crossBorder: { settlementStepMs: 20 },
      startApp: startAppAtPublicUrl,
    });
    stack = { ...started, bankRail: started.bankRail! };
    d = new DashboardClient(stack.t.baseUrl);
    owner = await d.signUp(d.email('reads'), 'Reads Co');
    apiKey = (await d.as(owner, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
  });

  afterAll(() => stack?.close());

  const merchantGet = async (path: string) => (await http(stack.t.baseUrl, 'GET', `/api/merchant${path}`, { apiKey })).body.response;
  /** A dashboard change of `user` with an Idempotency-Key (none when undefined). */
  const withKey = (user: DashboardUser, key: string | undefined, path: string, body?: unknown) =>
    http(stack.t.baseUrl, 'POST', `/api/dashboard${path}`, {
      body,
      headers: { cookie: user.cookie, 'x-csrf-token': user.csrf, origin: new URL(stack.t.baseUrl).origin, ...(key ? { 'idempotency-key': key } : {}) },
    });
  const auditedTimes = async (action: string, objectId: string) =>
    ((await d.as(owner, 'GET', `/audit-log?action=${action}`)).body.response as { objectId: string }[]).filter((entry) => entry.objectId === objectId).length;
  /** A member of the owner's team with `role`, signed in from the invitation. */
  const member = async (role: string): Promise<DashboardUser> => {
    const email = d.email(role);
    await d.as(owner, 'POST', '/members', { email, role });
    const { token } = await stack.inbox.linkIn(email, /invited/);
    return d.signedIn(await d.post('/invitations/accept', { token, password: 'correct horse battery staple' }), 201);
  };

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
    expectErrorBody(await withKey(owner, undefined, `/payment-intents/${intent.paymentIntentId}/confirm`, {}), 400, 'idempotency_key_required');
    const key = `confirm-${intent.paymentIntentId}`;
    const [first, second] = await Promise.all([
      withKey(owner, key, `/payment-intents/${intent.paymentIntentId}/confirm`, {}),
      withKey(owner, key, `/payment-intents/${intent.paymentIntentId}/confirm`, {}),
    ]);
    expect([first.status, second.status].sort()).toEqual(expect.arrayContaining([200]));
    const again = await withKey(owner, key, `/payment-intents/${intent.paymentIntentId}/confirm`, {});
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const payout = { merchantReference: `dash-${Date.now()}`, amount: 1000, bankCode: '058', accountNumber: '0123456785', accountName: 'Reads Co' };
    const created = await withKey(owner, `wd-${payout.merchantReference}`, '/withdrawals', payout);
    expect(created.status).toBe(201);
    const replayed = await withKey(owner, `wd-${payout.merchantReference}`, '/withdrawals', payout);
    expect(replayed.body.response.withdrawalId).toBe(created.body.response.withdrawalId);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    const entries = (await d.as(owner, 'GET', '/audit-log')).body.response as { action: string; objectId: string }[];
    expect(entries.filter((entry) => entry.action === 'payment_intent.confirmed' && entry.objectId === intent.paymentIntentId)).toHaveLength(1);
    expect(entries.filter((entry) => entry.action === 'withdrawal.created' && entry.objectId === created.body.response.withdrawalId)).toHaveLength(1);

    const developer = await member('developer');
    expectErrorBody(await withKey(developer, `dev-${Date.now()}-key`, '/withdrawals', { ...payout, merchantReference: 'dev-payout' }), 403, 'role_forbidden');
  });

  it('issues a fresh agreement link for owners with an Idempotency-Key: replayed, not repeated, audited once, the old link void', async () => {
    const business = await createBusiness(stack.t, apiKey);
    const path = `/businesses/${business.poboUserId}/agreement-link`;
    expectErrorBody(await withKey(owner, undefined, path), 400, 'idempotency_key_required');
    const key = `link-${business.poboUserId}`;
    const issued = await withKey(owner, key, path);
    expect(issued.status).toBe(201);
    const fresh = issued.body.response.agreement.url as string;
    expect(fresh).not.toBe(business.agreement.url);
    const replayed = await withKey(owner, key, path);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.response.agreement.url).toBe(fresh);
    expect((await fetch(business.agreement.url)).status).toBe(410);
    expect((await fetch(fresh)).status).toBe(200);
    expect(await auditedTimes('pobo_business.agreement_link_issued', business.poboUserId)).toBe(1);

    const developer = await member('developer');
    expectErrorBody(await withKey(developer, `${key}-dev`, path), 403, 'role_forbidden');
    await acceptAgreementDirectly(stack.pg, business.poboUserId);
    expectErrorBody(await withKey(owner, `${key}-late`, path), 409, 'agreement_already_accepted');
    expect(await auditedTimes('pobo_business.agreement_link_issued', business.poboUserId)).toBe(1);
  });

  it('funds a test payment for owners and developers (test mode) with an Idempotency-Key, audited once each; viewers may not', async () => {
    expect((await d.as(owner, 'GET', '/me')).body.response.merchant.mode).toBe('test');
    const intent = await createIntent(stack.t, apiKey, { amount: 9000 });
    const path = `/test-helpers/payment-intents/${intent.paymentIntentId}/fund`;
    expectErrorBody(await withKey(owner, undefined, path, { amount: 1000 }), 400, 'idempotency_key_required');
    const key = `fund-${intent.paymentIntentId}`;
    const sent = await withKey(owner, key, path, { amount: 1000 });
    expect(sent.status).toBe(202);
    expect(sent.body.response).toMatchObject({ paymentIntentId: intent.paymentIntentId, amount: 1000 });
    const replayed = await withKey(owner, key, path, { amount: 1000 });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.response.transferId).toBe(sent.body.response.transferId);

    const developer = await member('developer');
    // No body: the intent's outstanding amount.
    expect((await withKey(developer, `${key}-dev`, path)).status).toBe(202);
    const funded = await eventually(
      () => getIntent(stack.t, apiKey, intent.paymentIntentId),
      (i) => i.status === 'funds_received',
      10_000,
      50,
    );
    expect(funded.payments.map((payment: { amount: number }) => payment.amount)).toEqual([1000, 9000]);
    expect(await auditedTimes('payment_intent.test_funded', intent.paymentIntentId)).toBe(2);

    const viewer = await member('viewer');
    expectErrorBody(await withKey(viewer, `${key}-viewer`, path, { amount: 1 }), 403, 'role_forbidden');
    const other = await d.signUp(d.email('fund-other'), 'Other Fund Co');
    expectErrorBody(await withKey(other, `${key}-other`, path, { amount: 1 }), 404, 'resource_not_found');
  });

  it("lists quotes and follows an international intent's timeline as the service recorded them; another merchant's are not found", async () => {
    await fundBalance(stack.t, apiKey, 400_000);
    const poboUserId = await verifiedBusiness(stack, apiKey);
    const first = await createQuote(stack.t, apiKey, { poboUserId, amount: 50 });
    const quote = await createQuote(stack.t, apiKey, { poboUserId, amount: 100 });
    const intent = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
    await pollIntent(stack.t, apiKey, intent.intentId, (seen) => seen.status === 'settled');

    const quotes = await d.as(owner, 'GET', '/quotes?limit=1');
    expect(quotes.body.response).toEqual([await merchantGet(`/quotes/${quote.quoteId}`)]);
    const next = /<([^>]+)>; rel="next"/.exec(quotes.headers.get('link') ?? '')![1];
    expect(next).toContain(`/api/dashboard/quotes?limit=1&cursor=${quote.quoteId}`);
    const older = await http(stack.t.baseUrl, 'GET', new URL(next).pathname + new URL(next).search, { headers: { cookie: owner.cookie } });
    expect(older.body.response.map((q: { quoteId: string }) => q.quoteId)).toEqual([first.quoteId]);
    expect((await d.as(owner, 'GET', `/quotes/${quote.quoteId}`)).body.response).toEqual(await merchantGet(`/quotes/${quote.quoteId}`));

    const timeline = (await d.as(owner, 'GET', `/international-payment-intents/${intent.intentId}/timeline`)).body.response as {
      status: string;
      previousStatus: string;
      cause: string;
      at: string;
    }[];
    expect(timeline.map((step) => step.status)).toEqual(PIPELINE.slice(1));
    expect(timeline.map((step) => step.previousStatus)).toEqual(PIPELINE.slice(0, -1));
    const { rows } = await stack.pg.query<{ cause: string }>('SELECT cause FROM international_payment_intent_status_history WHERE intent_id = $1 ORDER BY id', [
      intent.intentId,
    ]);
    expect(timeline.map((step) => step.cause)).toEqual(rows.map((row) => row.cause));
    expect([...timeline.map((step) => step.at)].sort()).toEqual(timeline.map((step) => step.at));

    const intentIds = async (status: string) =>
      ((await d.as(owner, 'GET', `/international-payment-intents?status=${status}`)).body.response as { intentId: string }[]).map((i) => i.intentId);
    expect(await intentIds('settled')).toContain(intent.intentId);
    expect(await intentIds('rejected')).not.toContain(intent.intentId);

    const other = await d.signUp(d.email('intl-other'), 'Other Intl Co');
    expectErrorBody(await d.as(other, 'GET', `/international-payment-intents/${intent.intentId}/timeline`), 404, 'resource_not_found');
    expectErrorBody(await d.as(other, 'GET', `/quotes/${quote.quoteId}`), 404, 'quote_not_found');
    expect((await d.as(other, 'GET', '/quotes')).body.response).toEqual([]);
  });

  it("answers a business's Naira collections and one collection as the merchant API does; another merchant's are not found", async () => {
    const { poboUserId } = await activeNairaBusiness(stack, apiKey);
    const sent = await post(stack.t, apiKey, `/api/merchant/test-helpers/pobo/users/${poboUserId}/naira-transfers`, { amount: 2500.5 });
    expect(sent.status).toBe(202);
    const [collection] = (
      await eventually(
        () => http(stack.t.baseUrl, 'GET', `/api/merchant/pobo/users/${poboUserId}/collections`, { apiKey }),
        (r) => r.body.response.length === 1,
        20_000,
        100,
      )
    ).body.response;
    expect((await d.as(owner, 'GET', `/businesses/${poboUserId}/collections`)).body.response).toEqual([collection]);
    expect((await d.as(owner, 'GET', `/collections/${collection.collectionId}`)).body.response).toEqual(collection);
    const other = await d.signUp(d.email('naira-other'), 'Other Naira Co');
    expectErrorBody(await d.as(other, 'GET', `/businesses/${poboUserId}/collections`), 404, 'resource_not_found');
    expectErrorBody(await d.as(other, 'GET', `/collections/${collection.collectionId}`), 404, 'resource_not_found');
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

  it('filters businesses by KYB status and withdrawals by status, keeping the filter in the next page link, even once the cursor moved on', async () => {
    const other = await d.signUp(d.email('filters'), 'Filters Co');
    const key = (await d.as(other, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createBusiness(stack.t, key, { businessName: `Filtered ${i} Ltd` }));
    await acceptAgreementDirectly(stack.pg, made[0].poboUserId);
    await acceptAgreementDirectly(stack.pg, made[2].poboUserId);
    const ids = (result: { body: { response: { poboUserId: string }[] } }) => result.body.response.map((b) => b.poboUserId);

    expect(ids(await d.as(other, 'GET', '/businesses?kybStatus=agreement_pending'))).toEqual([made[1].poboUserId]);
    const first = await d.as(other, 'GET', '/businesses?kybStatus=not_started&limit=1');
    expect(ids(first)).toEqual([made[2].poboUserId]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1];
    expect(next).toContain('/api/dashboard/businesses?kybStatus=not_started&limit=1&cursor=');
    // The cursor's business moves on (its KYB is submitted): the next page is still the one after it.
    await stack.pg.query(`UPDATE pobo_businesses SET kyb_status = 'processing' WHERE id = $1`, [made[2].poboUserId]);
    const second = await http(stack.t.baseUrl, 'GET', new URL(next).pathname + new URL(next).search, { headers: { cookie: other.cookie } });
    expect(second.status).toBe(200);
    expect(ids(second)).toEqual([made[0].poboUserId]);
    // The merchant API takes the same filter.
    const viaKey = await http(stack.t.baseUrl, 'GET', '/api/merchant/pobo/users?kybStatus=processing', { apiKey: key });
    expect(ids(viaKey)).toEqual([made[2].poboUserId]);

    await fundBalance(stack.t, key, 50_000);
    const payout = (reference: string) => ({
      merchantReference: reference,
      amount: 1000,
      bankCode: '058',
      accountNumber: '0123456785',
      accountName: 'Filters Co',
    });
    const created = await post(stack.t, key, '/api/merchant/withdrawals', payout('filters-payout'));
    expect(created.status).toBe(201);
    const succeeded = await eventually(
      () => d.as(other, 'GET', '/withdrawals?status=succeeded'),
      (result) => result.body.response.length === 1,
      10_000,
      50,
    );
    expect(succeeded.body.response[0].withdrawalId).toBe(created.body.response.withdrawalId);
    expect((await d.as(other, 'GET', '/withdrawals?status=failed')).body.response).toEqual([]);
    expect((await d.as(other, 'GET', '/international-payment-intents?status=settled')).body.response).toEqual([]);
    for (const bad of ['/businesses?kybStatus=approved', '/withdrawals?status=paid', '/international-payment-intents?status=done']) {
      expectErrorBody(await d.as(other, 'GET', bad), 400, 'validation_failed');
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
  it("finds each kind of object by each of its keys, best match first, and never another merchant's", async () => {
    const searcher = await d.signUp(d.email('search'), 'Search Co');
    const key = (await d.as(searcher, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    const poboUserId = await verifiedBusiness(stack, key, { businessName: 'Zephyr Logistics Ltd' });
    await fundBalance(stack.t, key, 500000);
    const intent = await createIntent(stack.t, key, { merchantReference: 'srch-order-77', amount: 1234.56 });
    const withdrawal = await post(stack.t, key, '/api/merchant/withdrawals', {
      merchantReference: 'srch-payout-9',
      amount: 4321.5,
      bankCode: '058',
      accountNumber: '0123456785',
      accountName: 'Quillon Freight',
    });
    expect(withdrawal.status).toBe(201);
    const quote = await createQuote(stack.t, key, { poboUserId, amount: 77.25 });
    const international = await createInternationalIntent(
      stack.t,
      key,
      intentBody(quote, { recipientFullName: 'Xanthe Okafor', accountNumber: '000987654321', paymentReference: 'srch-intl-5' }),
      `srch-intl-${Date.now()}`,
    );
    // A vault transfer needs a chain (the vault suites send real ones); here its row is what the search reads.
    const merchantId = (await stack.pg.query<{ merchant_id: string }>('SELECT merchant_id FROM pobo_businesses WHERE id = $1', [poboUserId])).rows[0]
      .merchant_id;
    const vaultTransferId = 'vtr_5c0ffee5c0ffee5c0ffee5c0';
    await stack.pg.query(
      `INSERT INTO vault_transfers (id, merchant_id, pobo_user_id, vault_transaction_id, chain, asset, amount, network_fee, from_address, wallet_index, to_address, merchant_reference, status)
       VALUES ($1, $2, $3, 'vtx_5c0ffee5c0ffee5c0ffee5c0', 'base', 'USDC', 12345678, 50000, '0xfrom', 0, '0xto', 'srch-vault-3', 'confirmed')`,
      [vaultTransferId, merchantId, poboUserId],
    );
    const ids = {
      pobo_business: poboUserId,
      payment_intent: intent.paymentIntentId as string,
      withdrawal: withdrawal.body.response.withdrawalId as string,
      international_payment_intent: international.intentId as string,
      vault_transfer: vaultTransferId,
    };
    const search = async (user: DashboardUser, q: string) => {
      const result = await d.as(user, 'GET', `/search?q=${encodeURIComponent(q)}`);
      expect(result.status).toBe(200);
      return result.body.response as { kind: string; id: string; label: string; createdAt: string }[];
    };
    const finds = async (q: string, kind: keyof typeof ids) => {
      const found = await search(searcher, q);
      expect(found.map((hit) => `${hit.kind} ${hit.id}`)).toContain(`${kind} ${ids[kind]}`);
      return found;
    };

    for (const [kind, id] of Object.entries(ids) as [keyof typeof ids, string][]) {
      // Whole, in capitals as pasted from elsewhere, and by its start.
      expect((await finds(id, kind))[0].id).toBe(id);
      await finds(id.toUpperCase(), kind);
      await finds(id.slice(0, id.indexOf('_') + 9), kind);
    }
    expect(await search(searcher, 'pi_12')).toEqual([]);

    expect((await finds('srch-order-77', 'payment_intent'))[0]).toMatchObject({ id: ids.payment_intent, label: 'srch-order-77 · 1,234.56 NGN' });
    expect((await finds('srch-payout-9', 'withdrawal'))[0].label).toBe('srch-payout-9 · 4,321.50 NGN to Quillon Freight');
    expect((await finds('srch-intl-5', 'international_payment_intent'))[0].label).toBe('77.25 USD to Xanthe Okafor');
    expect((await finds('srch-vault-3', 'vault_transfer'))[0].label).toBe('srch-vault-3 · 12.345678 USDC on base');

    expect((await finds('zephyr', 'pobo_business'))[0].label).toBe('Zephyr Logistics Ltd');
    await finds('ZEPHYR LOG', 'pobo_business');
    await finds('quillon', 'withdrawal');
    await finds('Xanthe Ok', 'international_payment_intent');
    expect(await search(searcher, 'ephyr')).toEqual([]);

    await finds((intent.virtualAccount.accountNumber as string).slice(-4), 'payment_intent');
    await finds('56785', 'withdrawal');
    await finds('654321', 'international_payment_intent');

    await finds('1234.56', 'payment_intent');
    await finds('1,234.56', 'payment_intent');
    await finds('4321.5', 'withdrawal');
    await finds('77.25', 'international_payment_intent');
    await finds('12.345678', 'vault_transfer');

    // Another merchant finds none of them, by any key, and their pages answer 404.
    const other = await d.signUp(d.email('search-other'), 'Other Search Co');
    for (const q of [...Object.values(ids), 'srch-order-77', 'zephyr', '1234.56', '56785', 'srch-vault-3']) expect(await search(other, q)).toEqual([]);
    for (const path of [
      `/businesses/${ids.pobo_business}`,
      `/payment-intents/${ids.payment_intent}`,
      `/withdrawals/${ids.withdrawal}`,
      `/international-payment-intents/${ids.international_payment_intent}`,
      `/vault-transfers/${ids.vault_transfer}`,
    ]) {
      expectErrorBody(await d.as(other, 'GET', path), 404, 'resource_not_found');
    }

    for (const bad of ['/search', '/search?q=', '/search?q=%20%20', '/search?q=a%00b', `/search?q=${'x'.repeat(101)}`, '/search?q=a&q=b']) {
      expectErrorBody(await d.as(searcher, 'GET', bad), 400, 'validation_failed');
    }
    expectErrorBody(await http(stack.t.baseUrl, 'GET', '/api/dashboard/search?q=zephyr', { apiKey: key }), 401, 'session_required');
    // A NUL in any list's filter is the same refusal, not a database error.
    expectErrorBody(await d.as(searcher, 'GET', '/payment-intents?merchantReference=a%00b'), 400, 'validation_failed');
    expectErrorBody(await http(stack.t.baseUrl, 'GET', '/api/merchant/payment-intents?merchantReference=a%00b', { apiKey: key }), 400, 'validation_failed');
  });
  it('answers the daily figures for the signed-in merchant only, in the time zone asked for, and refuses a bad window or zone', async () => {
    const charts = await d.signUp(d.email('daily'), 'Daily Co');
    const key = (await d.as(charts, 'POST', '/api-keys', { name: 'Server' })).body.response.apiKey;
    await fundBalance(stack.t, key, 12345.67);
    const daily = await d.as(charts, 'GET', '/balance/daily?days=7&timeZone=Africa/Lagos');
    expect(daily.status).toBe(200);
    expect(daily.body.response).toMatchObject({ currency: 'NGN', timeZone: 'Africa/Lagos' });
    expect(daily.body.response.days).toHaveLength(7);
    expect(daily.body.response.days[6]).toMatchObject({ collected: 12345.67, collectedCount: 1, closingAvailable: 12345.67 });
    expect(daily.body.response.days[5]).toMatchObject({ collected: 0, closingAvailable: 0 });
    // Another merchant's figures are its own (nothing), and 30 UTC days by default.
    const other = (await d.as(await d.signUp(d.email('daily-other'), 'Other Daily Co'), 'GET', '/balance/daily')).body.response;
    expect(other.timeZone).toBe('UTC');
    expect(other.days).toHaveLength(30);
    expect(other.days.every((day: { collected: number; closingAvailable: number }) => day.collected === 0 && day.closingAvailable === 0)).toBe(true);
    for (const bad of ['days=0', 'days=91', 'days=1.5', 'timeZone=Mars/Olympus', 'timeZone=', 'timeZone=UTC%00']) {
      expectErrorBody(await d.as(charts, 'GET', `/balance/daily?${bad}`), 400, 'validation_failed');
    }
  });
});
