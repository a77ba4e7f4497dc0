import { randomBytes } from 'node:crypto';
import { Resources } from './resources';
import { acceptAgreementDirectly, kybApplication } from './kyb-fixtures';
import { MoneyStack, MoneyStackOptions, post, startMoneyStack } from './money-stack';
import { eventually } from './poll';
import { CrossBorderSandbox, startCrossBorderSandboxes } from './sandboxes';
import { createBusiness, http, TestApp } from './test-app';
import { BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from '../../src/modules/rail-events/rail-events.routes';

export const QUOTES = '/api/merchant/quotes';
export const INTENTS = '/api/merchant/international-payment-intents';
export const PIPELINE = ['pending', 'processing', 'bridge_initiated', 'bridge_confirmed', 'withdrawal_initiated', 'withdrawal_confirmed', 'settled'];

/** A money stack with both cross-border sandbox rails calling the app back. */
export interface InternationalStack extends MoneyStack {
  bridgeRail: CrossBorderSandbox;
  payoutRail: CrossBorderSandbox;
  /** Points both cross-border rails' callbacks at an app (null: nowhere). */
  railCallbacksTo(baseUrl: string | null): Promise<void>;
}

export async function startInternationalStack(options: MoneyStackOptions & { settlementStepMs?: number }): Promise<InternationalStack> {
  const resources = new Resources();
  return resources.build(async () => {
    const rails = await resources.add(startCrossBorderSandboxes({ settlementStepMs: options.settlementStepMs ?? 20 }), (started) => started.close());
    const stack = await resources.add(startMoneyStack({ ...options, env: { ...rails.env, ...options.env } }), (started) => started.close());
    const railCallbacksTo = async (baseUrl: string | null) => {
      await rails.bridgeRail.callbacksTo(baseUrl === null ? null : `${baseUrl}${BRIDGE_RAIL_CALLBACK_PATH}`);
      await rails.payoutRail.callbacksTo(baseUrl === null ? null : `${baseUrl}${PAYOUT_RAIL_CALLBACK_PATH}`);
    };
    await railCallbacksTo(stack.t.baseUrl);
    return { ...stack, bridgeRail: rails.bridgeRail, payoutRail: rails.payoutRail, railCallbacksTo, close: () => resources.close() };
  });
}

/** A business of the merchant (`overrides` of its creation), verified through KYB: terms accepted, the application submitted, the (sandbox) provider's verdict polled. */
export async function verifiedBusiness(stack: MoneyStack, apiKey: string, overrides: Record<string, unknown> = {}): Promise<string> {
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
