import { randomBytes } from 'node:crypto';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { nubanFor } from '../../src/common/banking/nuban';
import { EVENT_TYPES } from '../../src/modules/events';
import { agreementPage } from '../support/agreement-page';
import { startAppAtPublicUrl } from '../support/browser';
import { createInternationalIntent, createQuote, intentBody, INTENTS, isFinal, pollIntent, verifiedBusiness } from '../support/international';
import { kybApplication } from '../support/kyb-fixtures';
import { createIntent, fundBalance, fundIntent, getIntent, ledgerVerify, post } from '../support/money-stack';
import { eventually } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { createBusiness, http } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { expectEachDeliveredOnce, subscribe } from '../support/webhooks';

const USERS = '/api/merchant/pobo/users';
const WD = '/api/merchant/withdrawals';

/**
 * Every event type, caused by the change it describes on the real stack (sandboxes, both
 * cross-border rails, the local chains, the worker), recorded with the object as its GET answers
 * it, and delivered to a subscribed receiver exactly once, signed. The vault's dropped deposit is
 * caused in the vault deposits suite (it needs a reorganisation) and the test event in the
 * webhooks suite.
 */
describe('Event types, each caused and delivered', () => {
  let stack: Stack;
  let apiKey: string;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    stack = await startStack({
      name: 'event-types',
      startApp: startAppAtPublicUrl,
      sandboxes: { payoutDelayMs: 20 },
      crossBorder: { settlementStepMs: 20 },
      chains: { confirmations: 3, blockIntervalMs: 200 },
      worker: true,
      merchants: ['events'],
      env: { PERIODIC_JOB_INTERVAL_MS: '300', PROVIDER_TIMEOUT_MS: '2000' },
    });
    apiKey = stack.merchants[0].apiKey;
    receiver = await WebhookReceiver.start();
    ({ secret } = await subscribe(stack.t, stack.pg, stack.merchants[0].merchantId, receiver.url));
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  const get = async (path: string) => (await http(stack.t.baseUrl, 'GET', path, { apiKey })).body.response;
  /** The events about one object, oldest first. */
  const eventsAbout = async (objectId: string): Promise<any[]> =>
    ((await get('/api/merchant/events?limit=100')) as any[]).filter((event) => Object.values(event.data.object).includes(objectId)).reverse();
  const settledEvents = (objectId: string, done: (events: any[]) => boolean) => eventually(() => eventsAbout(objectId), done, 20_000, 100);

  it("a business: its agreement accepted, every KYB move, its Naira account active, each carrying the business's GET", async () => {
    const business = await createBusiness(stack.t, apiKey, { allowNairaCollection: true });
    expect((await agreementPage(stack.t.baseUrl).accept(business.agreement.url)).status).toBe(200);
    const afterAcceptance = await get(`${USERS}/${business.poboUserId}`);
    const submitted = await http(stack.t.baseUrl, 'POST', `${USERS}/${business.poboUserId}/onboarding`, {
      apiKey,
      body: kybApplication(`RC-${randomBytes(4).toString('hex')}`),
    });
    expect(submitted.status).toBe(202);
    const events = await settledEvents(business.poboUserId, (found) => found.some((e) => e.type === 'pobo_business.naira_account_activated'));
    const final = await get(`${USERS}/${business.poboUserId}`);
    expect(events.map((e) => e.type)).toEqual([
      'pobo_business.agreement_accepted',
      'pobo_business.kyb_status_changed',
      'pobo_business.kyb_status_changed',
      'pobo_business.kyb_status_changed',
      'pobo_business.naira_account_activated',
    ]);
    expect(events.slice(0, 2).map((e) => e.data.object)).toEqual([afterAcceptance, afterAcceptance]);
    expect(events.filter((e) => e.type === 'pobo_business.kyb_status_changed').map((e) => e.data.object.kyb.status)).toEqual([
      'not_started',
      'processing',
      'verified',
    ]);
    expect(events.at(-1).data.object).toEqual(final);
    expect(final).toMatchObject({ nairaCollectionStatus: 'active', kyb: { status: 'verified' } });
  });

  it('a payment intent returned a payment, and another expired; withdrawals created, succeeded and failed', async () => {
    const returned = await createIntent(stack.t, apiKey, { amount: 900 });
    await fundIntent(stack.t, apiKey, returned.paymentIntentId, { amount: 899 });
    const expiring = await createIntent(stack.t, apiKey, { amount: 700, expiresInMinutes: 5 });
    await stack.pg.query(`UPDATE payment_intents SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.paymentIntentId]);
    await eventually(
      () => getIntent(stack.t, apiKey, expiring.paymentIntentId),
      (intent) => intent.status === 'expired',
      10_000,
      100,
    );
    expect((await settledEvents(returned.paymentIntentId, (found) => found.length === 2)).map((e) => e.type)).toEqual([
      'payment_intent.created',
      'payment_intent.payment_returned',
    ]);
    const expiredEvents = await settledEvents(expiring.paymentIntentId, (found) => found.length === 2);
    expect(expiredEvents.map((e) => e.type)).toEqual(['payment_intent.created', 'payment_intent.expired']);
    expect(expiredEvents[1].data.object).toEqual(await getIntent(stack.t, apiKey, expiring.paymentIntentId));

    await fundBalance(stack.t, apiKey, 10_000);
    const withdraw = async ([bankCode, accountNumber]: string[]) => {
      const created = await post(stack.t, apiKey, WD, {
        merchantReference: `wd-${randomBytes(4).toString('hex')}`,
        amount: 1_000,
        bankCode,
        accountNumber,
        accountName: 'Acme Stores Ltd',
      });
      expect(created.status).toBe(201);
      return created.body.response.withdrawalId as string;
    };
    for (const [account, last] of [
      [['044', nubanFor('044', '069000003')], 'withdrawal.succeeded'],
      [['058', '0000000025'], 'withdrawal.failed'],
    ] as const) {
      const id = await withdraw([...account]);
      const events = await settledEvents(id, (found) => found.length === 2);
      expect(events.map((e) => e.type)).toEqual(['withdrawal.created', last]);
      expect(events[1].data.object).toEqual(await get(`${WD}/${id}`));
    }
  });

  it('international payment intents: every step, settled; rejected, with the receivable its rails return and clear', async () => {
    await fundBalance(stack.t, apiKey, 5_000_000);
    const poboUserId = await verifiedBusiness(stack, apiKey);
    const quote = await createQuote(stack.t, apiKey, { poboUserId });
    const settled = await createInternationalIntent(stack.t, apiKey, intentBody(quote));
    await pollIntent(stack.t, apiKey, settled.intentId, isFinal);
    const events = await settledEvents(settled.intentId, (found) => found.some((e) => e.type === 'international_payment_intent.settled'));
    expect(events.map((e) => [e.type, e.data.object.status])).toEqual([
      ['international_payment_intent.created', 'pending'],
      ...['processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated', 'withdrawal_confirmed', 'settled'].map((status) => [
        'international_payment_intent.status_changed',
        status,
      ]),
      ['international_payment_intent.settled', 'settled'],
    ]);
    expect(events.at(-1).data.object).toEqual(await get(`${INTENTS}/${settled.intentId}`));
    expect(events.at(-2).data.object).toEqual(events.at(-1).data.object);

    const euro = await createQuote(stack.t, apiKey, { poboUserId, destinationCountry: 'DE', currency: 'EUR', amount: 50 });
    const rejected = await createInternationalIntent(
      stack.t,
      apiKey,
      intentBody(euro, { bankCodeType: 'iban', bankCode: 'DE41100100100000009999', accountNumber: undefined }, euro.options[1]),
    );
    const rejectedEvents = await settledEvents(rejected.intentId, (found) => found.some((e) => e.type === 'international_payment_intent.receivable_cleared'));
    expect(rejectedEvents.map((e) => e.type).slice(-6)).toEqual([
      'international_payment_intent.status_changed',
      'international_payment_intent.rejected',
      'international_payment_intent.receivable_opened',
      'international_payment_intent.return_completed',
      'international_payment_intent.return_completed',
      'international_payment_intent.receivable_cleared',
    ]);
    expect(rejectedEvents.at(-1).data.object).toEqual(await get(`${INTENTS}/${rejected.intentId}`));
    expect((await ledgerVerify(stack)).code).toBe(0);
  });

  it('a vault: a deposit pending then confirmed; transfers submitted, then confirmed or failed, each carrying its GET', async () => {
    const poboUserId = await verifiedBusiness(stack, apiKey);
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain: 'base', amount: 50 })).status).toBe(202);
    const lines = await eventually(
      async () => (await get(`${USERS}/${poboUserId}/vault/transactions`)) as any[],
      (found) => found.some((line) => line.status === 'confirmed'),
      20_000,
      100,
    );
    const deposit = await settledEvents(lines[0].vaultTransactionId, (found) => found.length === 2);
    expect(deposit.map((e) => [e.type, e.data.object.status])).toEqual([
      ['vault.deposit_pending', 'pending'],
      ['vault.deposit_confirmed', 'confirmed'],
    ]);
    expect(deposit[1].data.object).toEqual((await get(`${USERS}/${poboUserId}/vault/transactions`))[0]);

    const transfer = async (to: string) => {
      const created = await post(stack.t, apiKey, '/api/merchant/vault-transfers', {
        poboUserId,
        chain: 'base',
        asset: 'USDC',
        amount: 5,
        toAddress: to,
        merchantReference: 'payout',
      });
      expect(created.status).toBe(201);
      return created.body.response.vaultTransferId as string;
    };
    const confirmed = await transfer(privateKeyToAccount(generatePrivateKey()).address);
    const confirmedEvents = await settledEvents(confirmed, (found) => found.some((e) => e.type === 'vault_transfer.confirmed'));
    expect(confirmedEvents.map((e) => e.type)).toEqual(['vault_transfer.submitted', 'vault_transfer.confirmed']);
    expect(confirmedEvents[1].data.object).toEqual(await get(`/api/merchant/vault-transfers/${confirmed}`));

    const blacklisted = privateKeyToAccount(generatePrivateKey()).address;
    expect((await post(stack.t, apiKey, '/api/merchant/test-helpers/vault/blacklist', { chain: 'base', address: blacklisted })).status).toBe(200);
    const failed = await transfer(blacklisted);
    const failedEvents = await settledEvents(failed, (found) => found.some((e) => e.type === 'vault_transfer.failed'));
    expect(failedEvents.map((e) => e.type)).toEqual(['vault_transfer.submitted', 'vault_transfer.failed']);
    expect(failedEvents[1].data.object).toEqual(await get(`/api/merchant/vault-transfers/${failed}`));
  });

  it('delivered every event of every type once, signed, its body the event as the API answers it', async () => {
    const events = await expectEachDeliveredOnce(stack.t, apiKey, receiver, secret);
    const seen = new Set(events.map((event) => event.type));
    expect(EVENT_TYPES.filter((type) => !seen.has(type))).toEqual(['vault.deposit_dropped', 'webhook_endpoint.test']);
  });
});
