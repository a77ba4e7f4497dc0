/**
 * The whole merchant flow with a client from a second generator, `@hey-api/openapi-ts` (its fetch
 * client and SDK functions), which the service does not use itself. Given the key once as `auth`,
 * it sends it in both security schemes the document offers (`x-api-key` and `Authorization:
 * Bearer`), as such clients do. The e2e suite `openapi-client` generates `generated/hey-api/` from
 * the live document, type-checks this file against it (strict) and runs it.
 */
import { createClient } from './generated/hey-api/client';
import {
  confirmPaymentIntent,
  createInternationalPaymentIntent,
  createPaymentIntent,
  createPoboBusiness,
  createQuote,
  createWithdrawal,
  fundPaymentIntentForTest,
  getBalance,
  getInternationalPaymentIntent,
  getKybOnboarding,
  getPaymentIntent,
  submitKybApplication,
} from './generated/hey-api/sdk.gen';
import type { BalanceDto, InternationalIntentDto, KybApplicationDto, WithdrawalDto } from './generated/hey-api/types.gen';

export interface FlowRun {
  poboUserId: string;
  kybStatus: string;
  balanceAfterConfirm: BalanceDto;
  withdrawal: WithdrawalDto;
  intent: InternationalIntentDto;
}

/** Fails with the API's own words when an answer is an error. */
function answer<T>(result: { data?: T; error?: unknown; response?: Response }, what: string): T {
  if (result.error !== undefined || result.data === undefined) throw new Error(`${what}: ${result.response?.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gave up waiting');
}

export async function runFlow(
  baseUrl: string,
  apiKey: string,
  application: KybApplicationDto,
  acceptAgreement: (agreementUrl: string) => Promise<void>,
): Promise<FlowRun> {
  const client = createClient({ baseUrl, auth: apiKey });
  const key = () => crypto.randomUUID();

  const business = answer(
    await createPoboBusiness({
      client,
      body: { businessName: 'Hey Trading Ltd', email: 'ops@hey.example', phoneNumber: '+2348012345678', country: 'NG' },
    }),
    'create business',
  ).response;
  const poboUserId = business.poboUserId;
  await acceptAgreement(business.agreement.url!);

  answer(await submitKybApplication({ client, path: { poboUserId }, body: application }), 'submit KYB');
  const verified = await until(
    async () => answer(await getKybOnboarding({ client, path: { poboUserId } }), 'KYB state').response,
    (state) => state.kyb.status !== 'processing',
  );

  const intent = answer(
    await createPaymentIntent({ client, headers: { 'Idempotency-Key': key() }, body: { merchantReference: 'hey-order-1', amount: 250000 } }),
    'create payment intent',
  ).response;
  answer(await fundPaymentIntentForTest({ client, path: { paymentIntentId: intent.paymentIntentId }, body: {} }), 'fund');
  await until(
    async () => answer(await getPaymentIntent({ client, path: { paymentIntentId: intent.paymentIntentId } }), 'payment intent').response,
    (current) => current.status === 'funds_received',
  );
  // The body of confirm is optional: none is sent.
  answer(await confirmPaymentIntent({ client, path: { paymentIntentId: intent.paymentIntentId }, headers: { 'Idempotency-Key': key() } }), 'confirm');
  const [balanceAfterConfirm] = answer(await getBalance({ client }), 'balance').response;

  const withdrawal = answer(
    await createWithdrawal({
      client,
      headers: { 'Idempotency-Key': key() },
      body: { merchantReference: 'hey-payout-1', amount: 2500, bankCode: '058', accountNumber: '0123456785', accountName: 'Hey Stores Ltd' },
    }),
    'withdraw',
  ).response;

  const quote = answer(await createQuote({ client, body: { poboUserId, destinationCountry: 'US', currency: 'USD', amount: 100 } }), 'quote').response;
  const created = answer(
    await createInternationalPaymentIntent({
      client,
      headers: { 'Idempotency-Key': key() },
      body: {
        quoteId: quote.quoteId,
        quoteOptionId: quote.options[0].quoteOptionId,
        recipientFullName: 'Jane Doe',
        bankCodeType: 'swift',
        bankCode: 'CHASUS33',
        accountNumber: '000123456789',
        purposeOfTransfer: 'Salary',
      },
    }),
    'international payment intent',
  ).response;
  const settled = await until(
    async () => answer(await getInternationalPaymentIntent({ client, path: { intentId: created.intentId } }), 'international payment intent').response,
    (current) => current.status === 'settled' || current.status === 'rejected',
  );

  return { poboUserId, kybStatus: verified.kyb.status, balanceAfterConfirm, withdrawal, intent: settled };
}
