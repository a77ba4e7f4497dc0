import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { isValidNuban } from '../../src/common/banking/nuban';
import { DEV_BANK_RAIL_API_KEY } from '../../src/config/dev-secrets';
import { expectErrorBody } from '../support/contract';
import { balanceOf, ledgerVerify, MoneyStack, post, startMoneyStack } from '../support/money-stack';
import { activeNairaBusiness } from '../support/naira';
import { eventually } from '../support/poll';
import { createBusiness, http } from '../support/test-app';

const run = promisify(execFile);
const BUSINESSES = '/api/merchant/pobo/users';
const kobo = (amount: number) => Math.round(amount * 100);

/** A business's own Naira account: its details once active, every transfer into it collected once (real PostgreSQL, Redis, worker and sandbox bank). */
describe('A business’s Naira collection account', () => {
  let stack: MoneyStack;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'naira-collections' });
  }, 60_000);

  afterAll(() => stack?.close());

  /** A new merchant's business with Naira collection, once its account is `active`, and what was answered before. */
  async function activeBusiness(): Promise<{ apiKey: string; poboUserId: string; created: object; account: any }> {
    const { apiKey } = await stack.t.createMerchant();
    return { apiKey, ...(await activeNairaBusiness(stack, apiKey)) };
  }

  const send = (apiKey: string, poboUserId: string, body: Record<string, unknown>, key?: string) =>
    post(stack.t, apiKey, `/api/merchant/test-helpers/pobo/users/${poboUserId}/naira-transfers`, body, key);
  const listOf = async (apiKey: string, poboUserId: string, query = ''): Promise<any> =>
    http(stack.t.baseUrl, 'GET', `${BUSINESSES}/${poboUserId}/collections${query}`, { apiKey });
  const collectionsOf = async (apiKey: string, poboUserId: string, count: number): Promise<any[]> =>
    (
      await eventually(
        () => listOf(apiKey, poboUserId),
        (r) => r.body.response.length >= count,
        20_000,
        100,
      )
    ).body.response;
  const balanceTransactions = async (apiKey: string): Promise<any[]> =>
    (await http(stack.t.baseUrl, 'GET', '/api/merchant/balance-transactions', { apiKey })).body.response;

  it('shows the account once active, with a NUBAN valid for its bank code, in every answer that carries the business; null before', async () => {
    const { apiKey, poboUserId, created, account } = await activeBusiness();
    expect(created).toMatchObject({ nairaCollectionStatus: 'not_requested', nairaAccount: null });
    expect(account).toEqual({
      accountNumber: expect.stringMatching(/^\d{10}$/),
      accountName: 'Acme Trading Ltd',
      bankName: expect.any(String),
      bankCode: expect.stringMatching(/^\d{3}$/),
    });
    expect(isValidNuban(account.bankCode, account.accountNumber)).toBe(true);
    const listed = await http(stack.t.baseUrl, 'GET', BUSINESSES, { apiKey });
    expect(listed.body.response.find((b: any) => b.poboUserId === poboUserId).nairaAccount).toEqual(account);
    const onboarding = await http(stack.t.baseUrl, 'GET', `${BUSINESSES}/${poboUserId}/onboarding`, { apiKey });
    expect(onboarding.body.response.nairaAccount).toEqual(account);
    // A business without Naira collection never has one.
    const plain = await createBusiness(stack.t, apiKey);
    expect(plain).toMatchObject({ nairaAccount: null });
  });

  it('credits a transfer once, to the merchant’s balance with a collection balance transaction naming the business, however often the rail tells us', async () => {
    const { apiKey, poboUserId, account } = await activeBusiness();
    const sent = await send(apiKey, poboUserId, {
      amount: 1250.5,
      senderName: 'Chidi Okafor',
      senderBankName: 'Guaranty Trust Bank',
      senderAccountNumber: '0123456789',
      narration: 'Invoice 2231',
    });
    expect(sent.status).toBe(202);
    expect(sent.body.response).toEqual({ transferId: expect.stringMatching(/^trf_/), poboUserId, accountNumber: account.accountNumber, amount: 1250.5 });
    const [collection] = await collectionsOf(apiKey, poboUserId, 1);
    expect(collection).toEqual({
      collectionId: expect.stringMatching(/^col_[0-9a-f]{24}$/),
      poboUserId,
      amount: 1250.5,
      currency: 'NGN',
      senderName: 'Chidi Okafor',
      senderBankName: 'Guaranty Trust Bank',
      senderAccountNumber: '0123456789',
      narration: 'Invoice 2231',
      status: 'credited',
      returnReason: null,
      receivedAt: expect.any(String),
    });
    expect((await http(stack.t.baseUrl, 'GET', `/api/merchant/collections/${collection.collectionId}`, { apiKey })).body.response).toEqual(collection);
    expect(await balanceOf(stack.t, apiKey)).toEqual({ currency: 'NGN', available: 1250.5, reserved: 0 });
    expect(await balanceTransactions(apiKey)).toEqual([
      expect.objectContaining({ type: 'collection', amount: 1250.5, sourceId: collection.collectionId, poboUserId }),
    ]);

    // The rail delivers the same event again: nothing more.
    const events = (await stack.bankRail.state<any>('/_sandbox/events')).events.filter(
      (e: any) => e.type === 'transfer.received' && e.data.id === sent.body.response.transferId,
    );
    expect(events).toHaveLength(1);
    // Each redelivery is acknowledged (200) and recorded once.
    expect(await stack.bankRail.control(`deliver/${events[0].id}`, {})).toEqual({ status: 200 });
    expect(await stack.bankRail.control(`deliver/${events[0].id}`, {})).toEqual({ status: 200 });
    expect((await stack.pg.query(`SELECT count(*)::int AS n FROM rail_events WHERE id = $1`, [events[0].id])).rows[0].n).toBe(1);
    expect(await collectionsOf(apiKey, poboUserId, 1)).toHaveLength(1);
    expect(await balanceOf(stack.t, apiKey)).toEqual({ currency: 'NGN', available: 1250.5, reserved: 0 });

    // The same Idempotency-Key is the same transfer at the rail.
    const key = `naira-${randomBytes(12).toString('hex')}`;
    const first = await send(apiKey, poboUserId, { amount: 10 }, key);
    const again = await send(apiKey, poboUserId, { amount: 10 }, key);
    expect(again.body.response.transferId).toBe(first.body.response.transferId);
    expect(await collectionsOf(apiKey, poboUserId, 2)).toHaveLength(2);
    expect((await balanceOf(stack.t, apiKey)).available).toBe(1260.5);
  });

  it('credits each of 20 transfers arriving at once exactly once, and one whose callback was dropped through the reconciliation sweep', async () => {
    const { apiKey, poboUserId } = await activeBusiness();
    const amounts = Array.from({ length: 20 }, (_, i) => 100 + i);
    const sent = await Promise.all(amounts.map((amount) => send(apiKey, poboUserId, { amount })));
    expect(sent.map((r) => r.status)).toEqual(amounts.map(() => 202));
    const collections = await collectionsOf(apiKey, poboUserId, 20);
    expect(collections.map((c) => c.amount).sort((a, b) => a - b)).toEqual(amounts);
    expect(collections.every((c) => c.status === 'credited')).toBe(true);

    // No callback for the next one: the sweep of the rail's event list finds it.
    await stack.bankRail.control('webhook', { drop_next: 1 });
    expect((await send(apiKey, poboUserId, { amount: 777 })).status).toBe(202);
    const swept = await collectionsOf(apiKey, poboUserId, 21);
    expect(swept.filter((c) => c.amount === 777)).toHaveLength(1);
    const total = [...amounts, 777].reduce((sum, amount) => sum + kobo(amount), 0);
    expect(kobo((await balanceOf(stack.t, apiKey)).available)).toBe(total);
    const credited = (await balanceTransactions(apiKey)).filter((b) => b.type === 'collection');
    expect(credited).toHaveLength(21);
    expect((await ledgerVerify(stack)).report).toMatchObject({ ok: true });
  });

  it('lists newest first, a page at a time, within a window of receipt', async () => {
    const { apiKey, poboUserId } = await activeBusiness();
    for (const amount of [1, 2, 3]) {
      await send(apiKey, poboUserId, { amount });
      await collectionsOf(apiKey, poboUserId, amount);
    }
    const all = await collectionsOf(apiKey, poboUserId, 3);
    expect(all.map((c) => c.amount)).toEqual([3, 2, 1]);
    const first = await listOf(apiKey, poboUserId, '?limit=2');
    expect(first.body.response.map((c: any) => c.amount)).toEqual([3, 2]);
    const next = new URL(/<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1]);
    const second = await http(stack.t.baseUrl, 'GET', `${next.pathname}${next.search}`, { apiKey });
    expect(second.body.response.map((c: any) => c.amount)).toEqual([1]);
    const middle = all[1].receivedAt;
    expect((await listOf(apiKey, poboUserId, `?receivedAfter=${middle}`)).body.response.map((c: any) => c.amount)).toEqual([3, 2]);
    expect((await listOf(apiKey, poboUserId, `?receivedBefore=${middle}`)).body.response.map((c: any) => c.amount)).toEqual([1]);
    expectErrorBody(await listOf(apiKey, poboUserId, '?receivedAfter=yesterday'), 400, 'validation_failed');
  });

  it('returns a transfer into an account an operator closed, once, and shows the business without it', async () => {
    const { apiKey, poboUserId, account } = await activeBusiness();
    await send(apiKey, poboUserId, { amount: 50 });
    await collectionsOf(apiKey, poboUserId, 1);
    const { stdout } = await run('npm', ['run', '--silent', 'naira:close', '--', '--business', poboUserId, '--note', 'Business asked to close it'], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
    });
    expect(JSON.parse(stdout)).toEqual({ poboUserId, accountNumber: account.accountNumber, status: 'closed', note: 'Business asked to close it' });
    const business = (await http(stack.t.baseUrl, 'GET', `${BUSINESSES}/${poboUserId}`, { apiKey })).body.response;
    expect(business).toMatchObject({ allowNairaCollection: false, nairaCollectionStatus: 'not_requested', nairaAccount: null });
    expectErrorBody(await send(apiKey, poboUserId, { amount: 5 }), 409, 'naira_account_not_active');

    // A sender who still has the old details pays into it: the bank credits us, we send it back.
    const sentToClosed = await fetch(`${stack.bankRail.url}/v1/simulations/inbound-transfers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEV_BANK_RAIL_API_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': `late-${randomBytes(4).toString('hex')}`,
      },
      body: JSON.stringify({ account_number: account.accountNumber, amount: 2_000, sender_bank_name: 'Zenith Bank', sender_account_number: '1234567890' }),
    });
    expect(sentToClosed.status).toBe(201);
    const transferId = ((await sentToClosed.json()) as { id: string }).id;
    const collections = await collectionsOf(apiKey, poboUserId, 2);
    expect(collections[0]).toMatchObject({ amount: 20, status: 'returned', returnReason: 'account_closed' });
    const returned = await eventually(
      async () => (await stack.bankRail.state<any>('/_sandbox/transfers')).transfers.find((t: any) => t.id === transferId),
      (t) => t?.status === 'returned',
      10_000,
      100,
    );
    expect(returned.status).toBe('returned');
    expect((await stack.bankRail.state<any>('/_sandbox/transfers')).returns.filter((r: any) => r.transfer_id === transferId)).toHaveLength(1);
    expect(await balanceOf(stack.t, apiKey)).toEqual({ currency: 'NGN', available: 50, reserved: 0 });
    expect((await ledgerVerify(stack)).report).toMatchObject({ ok: true });
    // Closing twice is refused.
    await expect(
      run('npm', ['run', '--silent', 'naira:close', '--', '--business', poboUserId, '--note', 'Again'], {
        cwd: `${__dirname}/../..`,
        env: { ...process.env, ...stack.env, DATABASE_URL: stack.db.url },
      }),
    ).rejects.toMatchObject({ code: 1 });
  });

  it("answers another merchant's business and collection with 404, and refuses a transfer without an amount", async () => {
    const { apiKey, poboUserId } = await activeBusiness();
    await send(apiKey, poboUserId, { amount: 1 });
    const [collection] = await collectionsOf(apiKey, poboUserId, 1);
    const other = await stack.t.createMerchant('Nosy');
    expectErrorBody(await listOf(other.apiKey, poboUserId), 404, 'resource_not_found');
    expectErrorBody(
      await http(stack.t.baseUrl, 'GET', `/api/merchant/collections/${collection.collectionId}`, { apiKey: other.apiKey }),
      404,
      'resource_not_found',
    );
    expectErrorBody(await send(other.apiKey, poboUserId, { amount: 1 }), 404, 'resource_not_found');
    expectErrorBody(await send(apiKey, poboUserId, {}), 400, 'validation_failed');
  });
});
