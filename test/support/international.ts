import { randomBytes } from 'node:crypto';
import { acceptAgreementDirectly, kybApplication } from './kyb-fixtures';
import { MoneyStack, MoneyStackOptions, moneyStackOptions, post } from './money-stack';
import { eventually } from './poll';
import { CrossBorderSandbox } from './sandboxes';
import { startStack } from './stack';
import { createBusiness, http, TestApp } from './test-app';

export const QUOTES = '/api/merchant/quotes';
export const INTENTS = '/api/merchant/international-payment-intents';
export const PIPELINE = ['pending', 'processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated', 'withdrawal_confirmed', 'settled'];

/** A money stack with both cross-border sandbox rails calling the app back. */
export interface InternationalStack extends MoneyStack {
  bridgeRail: CrossBorderSandbox;
  payoutRail: CrossBorderSandbox;
}

export async function startInternationalStack(options: MoneyStackOptions & { settlementStepMs?: number }): Promise<InternationalStack> {
  const stack = await startStack({ ...moneyStackOptions(options), crossBorder: { settlementStepMs: options.settlementStepMs ?? 20 } });
  return { ...stack, bankRail: stack.bankRail!, bridgeRail: stack.bridgeRail!, payoutRail: stack.payoutRail! };
}

/**
 * A business of the merchant (`overrides` of its creation), verified through KYB: terms accepted,
 * the application submitted, the (sandbox) provider's verdict polled.
 */
export async function verifiedBusiness(stack: Pick<MoneyStack, 't' | 'pg'>, apiKey: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const { poboUserId } = await createBusiness(stack.t, apiKey, { businessName: 'Globex Exports Ltd', ...overrides });
  await acceptAgreementDirectly(stack.pg, poboUserId);
  const submitted = await http(stack.t.baseUrl, 'POST', `/api/merchant/pobo/users/${poboUserId}/onboarding`, {
    apiKey,
    body: kybApplication(`RC-${randomBytes(4).toString('hex')}`),
  });
  expect(submitted.status).toBe(202);
  const verified = await eventually(
    () => http(stack.t.baseUrl, 'GET', `/api/merchant/pobo/users/${poboUserId}/onboarding`, { apiKey }),
    (r) => r.body.response.kyb.status !== 'processing',
    20_000,
    100,
  );
  expect(verified.body.response.kyb.status).toBe('verified');
  return poboUserId;
}

export async function createQuote(t: Pick<TestApp, 'baseUrl'>, apiKey: string, body: Record<string, unknown>): Promise<any> {
  const result = await http(t.baseUrl, 'POST', QUOTES, { apiKey, body: { destinationCountry: 'US', currency: 'USD', amount: 100, ...body } });
  expect(result.status).toBe(201);
  return result.body.response;
}

/** The body of an international payment intent for a SWIFT recipient, paid from `option` of `quote`. */
export function intentBody(quote: any, overrides: Record<string, unknown> = {}, option = quote.options[0]): Record<string, unknown> {
  return {
    quoteId: quote.quoteId,
    quoteOptionId: option.quoteOptionId,
    recipientFullName: 'Jane Doe',
    bankCodeType: 'swift',
    bankCode: 'CHASUS33',
    accountNumber: '000123456789',
    purposeOfTransfer: 'information service charges',
    recipientEmail: 'jane@example.com',
    paymentReference: 'INV-2026-0042',
    ...overrides,
  };
}

export async function createInternationalIntent(t: Pick<TestApp, 'baseUrl'>, apiKey: string, body: Record<string, unknown>, key?: string): Promise<any> {
  const result = await post(t, apiKey, INTENTS, body, key);
  expect(result.status).toBe(201);
  return result.body.response;
}

/** Polls endpoint 6 until `done`, returning every answer seen (the last one last). */
export async function pollIntent(t: Pick<TestApp, 'baseUrl'>, apiKey: string, id: string, done: (intent: any) => boolean, timeoutMs = 20_000): Promise<any[]> {
  const seen: any[] = [];
  await eventually(
    async () => {
      const result = await http(t.baseUrl, 'GET', `${INTENTS}/${id}`, { apiKey });
      expect(result.status).toBe(200);
      seen.push(result.body.response);
      return result.body.response;
    },
    done,
    timeoutMs,
    25,
  );
  return seen;
}

export const isFinal = (intent: any) => intent.status === 'settled' || intent.status === 'rejected';
