import { randomBytes } from 'node:crypto';
import { acceptAgreementDirectly, kybApplication } from './kyb-fixtures';
import type { MoneyStack } from './money-stack';
import { eventually } from './poll';
import { createBusiness, http } from './test-app';

const BUSINESSES = '/api/merchant/pobo/users';

/**
 * A business of the merchant with Naira collection, once its account is `active` (agreement
 * accepted directly, KYB verified by the sandbox provider), and what creating it answered.
 */
export async function activeNairaBusiness(stack: Pick<MoneyStack, 't' | 'pg'>, apiKey: string): Promise<{ poboUserId: string; created: object; account: any }> {
  const created = await createBusiness(stack.t, apiKey, { allowNairaCollection: true });
  await acceptAgreementDirectly(stack.pg, created.poboUserId);
  const submitted = await http(stack.t.baseUrl, 'POST', `${BUSINESSES}/${created.poboUserId}/onboarding`, {
    apiKey,
    body: kybApplication(`RC-${randomBytes(4).toString('hex')}`),
  });
  expect(submitted.status).toBe(202);
  const active = await eventually(
    () => http(stack.t.baseUrl, 'GET', `${BUSINESSES}/${created.poboUserId}`, { apiKey }),
    (r) => r.body.response.nairaCollectionStatus === 'active',
    20_000,
    100,
  );
  return { poboUserId: created.poboUserId, created, account: active.body.response.nairaAccount };
}
