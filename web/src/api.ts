/**
 * The dashboard's calls to its API, typed by the service's own OpenAPI document: `npm run web:api`
 * generates `generated/dashboard-api.d.ts` from the document the service serves (before every
 * build and type-check), and every call names its operation's path, so a response schema that
 * changes under a page fails `npm run typecheck`.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/dashboard-api';

type Schemas = components['schemas'];
/** A request body, by its schema's name. */
export type Body<N extends keyof Schemas> = Schemas[N];

/**
 * A form's values as the body of its operation: the form's fields are named as the body's
 * properties, and the service validates them (a wrong one is a 400 naming the field).
 */
export function formBody<N extends keyof Schemas>(values: Record<string, string>): Schemas[N] {
  return values as unknown as Schemas[N];
}
export type Role = Schemas['InviteMemberDto']['role'];
export type Account = Schemas['AccountDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type ApiKeyPermission = ApiKey['permissions'][number];
export type IssuedApiKey = Schemas['IssuedApiKeyDto'];
export type Member = Schemas['MemberDto'];
export type Invitation = Schemas['InvitationDto'];
export type Session = Schemas['SessionDto'];
export type AuditEntry = Schemas['AuditEntryDto'];
export type Balance = Schemas['BalanceDto'];
export type BalanceTransaction = Schemas['BalanceTransactionDto'];
export type DailyActivity = Schemas['DailyActivityDto'];
export type Business = Schemas['PoboBusinessDto'];
export type PaymentIntent = Schemas['PaymentIntentDto'];
export type Withdrawal = Schemas['WithdrawalDto'];
export type Collection = Schemas['CollectionDto'];
export type InternationalIntent = Schemas['InternationalIntentDto'];
/** One move of an international payment intent through the pipeline. */
export type TimelineEntry = Schemas['TimelineEntryDto'];
export type Quote = Schemas['QuoteDto'];
export type TestTransfer = Schemas['FundPaymentIntentResultDto'];
export type TestDeposit = Schemas['TestDepositSentDto'];
export type Vault = Schemas['VaultDto'];
export type VaultHolder = Schemas['VaultHolderDto'];
export type VaultTransaction = Schemas['VaultTransactionDto'];
export type VaultTransfer = Schemas['VaultTransferDto'];
export type WebhookEndpoint = Schemas['WebhookEndpointDto'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecretDto'];
export type WebhookAttempt = Schemas['WebhookAttemptDto'];
export type MerchantEvent = Schemas['EventDto'];

/** What the service answers when it refuses: its message, its stable code, and the request id to quote. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** The service answered 404: the object does not exist, or it is another merchant's. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** A page of a list: its items, and the cursor of the next page when there is one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

let csrfToken = '';

/** The session's CSRF token, from the answers that carry it (sign-up, login, `me`). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** The session cookie goes with every call, and the CSRF token with every change. */
export const dashboard = createClient<paths>({ credentials: 'same-origin', headers: { accept: 'application/json' } });
dashboard.use({
  onRequest({ request }) {
    if (request.method !== 'GET') request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
});

interface ErrorBody {
  message?: string;
  error?: { code: string; details?: { field: string; message: string }[] };
  requestId?: string;
}

/**
 * The `response` of an answer's envelope, or the refusal as an `ApiError`. A money-moving change
 * carries the Idempotency-Key of its one operation (`params.header`): sent twice (a double click,
 * a retry after a lost answer), it happens once and answers the same.
 */
export async function answer<T>(call: Promise<{ data?: { response: T }; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data.response;
  const body = (typeof error === 'object' && error !== null ? error : {}) as ErrorBody;
  throw new ApiError(
    response.status,
    body.error?.code ?? 'unknown',
    body.message ?? `The service answered ${response.status}`,
    body.requestId ?? response.headers.get('x-request-id') ?? undefined,
    body.error?.details ?? [],
  );
}

/** The dashboard's lists: GET operations answering a page, with its `Link` header. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { headers: { Link?: string } } } } } ? P : never;
}[keyof paths];
type ListItem<P extends ListPath> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { response: (infer T)[] } } } } } }
  ? T
  : never;

/**
 * A page of a list, `query` carrying the filters and the cursor (the page's URL is the list's: a
 * filtered page is a link to share); the next cursor comes from the `Link` header. `pathParams`
 * fills the list's own path parameters.
 */
export async function page<P extends ListPath>(path: P, query: URLSearchParams, pathParams: Record<string, string> = {}): Promise<Page<ListItem<P>>> {
  const { data, error, response } = await dashboard.GET(path as never, { params: { path: pathParams, query: Object.fromEntries(query) } } as never);
  const items = await answer<ListItem<P>[]>(Promise.resolve({ data, error, response }));
  const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  return { items, nextCursor: next ? (new URL(next).searchParams.get('cursor') ?? undefined) : undefined };
}
