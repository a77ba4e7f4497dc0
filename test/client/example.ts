/**
 * What a merchant's engineer writes with a client generated from the served OpenAPI document
 * (`openapi-typescript` types, `openapi-fetch` calls). The e2e suite `openapi-client` generates
 * `generated/merchant-api.d.ts` from the live document, type-checks this file against it (strict),
 * and runs it: if the document drifts from what this code needs, the compile fails.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/merchant-api';

type ListHeaders = paths['/api/merchant/pobo/users']['get']['responses'][200]['headers'];
type Business = components['schemas']['PoboBusinessDto'];
type KybApplication = components['schemas']['KybApplicationDto'];

export interface ExampleRun {
  created: Business[];
  /** From the typed `Link` header of the first page. */
  nextLink: ListHeaders['Link'];
  secondPage: Business[];
  fetched: Business;
  onboardingBefore: Business;
  submitted: Business;
}

export async function runExample(
  baseUrl: string,
  apiKey: string,
  application: KybApplication,
  acceptAgreement: (poboUserId: string) => Promise<void>,
): Promise<ExampleRun> {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });

  const created: Business[] = [];
  for (const name of ['Example One Ltd', 'Example Two Ltd']) {
    const { data, error } = await client.POST('/api/merchant/pobo/users', {
      body: { businessName: name, email: 'ops@example.com', phoneNumber: '+2348012345678', country: 'NG' },
    });
    if (error) throw new Error(`create failed: ${error.error.code}`);
    created.push(data.response);
  }

  const first = await client.GET('/api/merchant/pobo/users', { params: { query: { limit: 1 } } });
  if (first.error) throw new Error(`list failed: ${first.error.error.code}`);
  const nextLink: ListHeaders['Link'] = first.response.headers.get('Link') ?? undefined;
  const cursor = nextLink ? new URL(/<([^>]+)>/.exec(nextLink)![1]).searchParams.get('cursor') ?? undefined : undefined;
  const second = await client.GET('/api/merchant/pobo/users', { params: { query: { limit: 1, cursor } } });
  if (second.error) throw new Error(`second page failed: ${second.error.error.code}`);

  const id = created[0].poboUserId;
  const got = await client.GET('/api/merchant/pobo/users/{poboUserId}', { params: { path: { poboUserId: id } } });
  if (got.error) throw new Error(`get failed: ${got.error.error.code}`);

  const before = await client.GET('/api/merchant/pobo/users/{poboUserId}/onboarding', { params: { path: { poboUserId: id } } });
  if (before.error) throw new Error(`onboarding read failed: ${before.error.error.code}`);

  await acceptAgreement(id);
  const submitted = await client.POST('/api/merchant/pobo/users/{poboUserId}/onboarding', { params: { path: { poboUserId: id } }, body: application });
  if (submitted.error) throw new Error(`submission failed: ${submitted.error.error.code}`);

  return {
    created,
    nextLink,
    secondPage: second.data.response,
    fetched: got.data.response,
    onboardingBefore: before.data.response,
    submitted: submitted.data.response,
  };
}
