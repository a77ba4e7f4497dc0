/**
 * Every error code of the API: its HTTP status and when it is answered. The OpenAPI enums of each
 * response, the status the one filter answers with, and the error table of docs/api.md
 * (`npm run docs:errors`, checked by a unit test) all come from this list. A code is added with
 * the feature that answers it. Codes are part of the public contract: add new ones, never rename.
 */
export const ERRORS = {
  invalid_json: { status: 400, when: 'The body is not valid JSON.' },
  validation_failed: {
    status: 400,
    when:
      'A field is missing, malformed or unknown, in the body or the query string (`details` names each). Also the KYB rules: person counts, a missing or ' +
      'repeated file group, bad base64, an empty document, a PATCH without any section. Also hostile input: nesting deeper than 32 levels, NUL characters or ' +
      'lone surrogates in any string or field name.',
  },
  invalid_cursor: { status: 400, when: '`cursor` is not the id of one of your items of that list.' },
  idempotency_key_required: {
    status: 400,
    when: 'A money-moving POST without `Idempotency-Key` (see [Idempotency](#idempotency-retrying-safely)). Nothing ran.',
  },
  idempotency_key_invalid: {
    status: 400,
    when: '`Idempotency-Key` is not 16 to 255 printable ASCII characters, or the header was sent more than once (two values are never joined into one key). Nothing ran.',
  },
  account_number_invalid: { status: 400, when: "A withdrawal's `accountNumber` is not a NUBAN whose check digit fits `bankCode`." },
  address_invalid: {
    status: 400,
    when: 'An address that is not one of the chain named: on `ethereum`, `polygon` and `base` 20 bytes of hex with a valid EIP-55 checksum when mixed-case; on `solana` a base58 32-byte key.',
  },
  webhook_url_not_allowed: {
    status: 400,
    when: "A webhook endpoint's `url` the service will not call: in production anything but `https://`, credentials in the URL, or a host that resolves to a private, loopback, link-local, CGNAT, multicast or reserved address.",
  },
  unsupported_corridor: { status: 400, when: 'A quote for a destination country and currency that no route serves.' },
  bad_request: { status: 400, when: 'A URL or request the server cannot parse. The URL is not echoed back.' },
  unauthorized: {
    status: 401,
    when: 'The API key: see [Authentication](#authentication). Same body for every cause, with `WWW-Authenticate: Bearer realm="merchant-api"`.',
  },
  conflicting_credentials: {
    status: 401,
    when: '`x-api-key` and `Authorization: Bearer` carry two different keys (both headers with the same key are accepted).',
  },
  invalid_credentials: {
    status: 401,
    when: 'Dashboard login: the e-mail and password do not match an account (the same answer whichever of the two is wrong, and for an unknown e-mail).',
  },
  session_required: {
    status: 401,
    when: 'A dashboard route called without a valid session (none, ended, idle over 30 minutes or older than 12 hours), or with an API key.',
  },
  two_factor_required: {
    status: 401,
    when: 'Dashboard login with the right password for a user with a second factor, without `code`: send the same request again with the code.',
  },
  invalid_two_factor_code: {
    status: 401,
    when: 'A second-factor code (TOTP or recovery) that is wrong, already used, or out of its time window. Counts as a failed login.',
  },
  invalid_link: { status: 400, when: 'An e-mailed link (verification, password reset, invitation) that is unknown, used, expired or revoked.' },
  csrf_failed: {
    status: 403,
    when: "An unsafe dashboard request without its session's `X-CSRF-Token`, or with an `Origin` other than the service's own.",
  },
  role_forbidden: {
    status: 403,
    when: "The signed-in user's role does not allow this (a viewer writes, a developer manages the team or moves money): see the roles in the dashboard docs.",
  },
  permission_denied: {
    status: 403,
    when: 'The API key lacks the permission the operation needs (`read` for reads, `write` for businesses, KYB, quotes and creating payment intents, `move_money` for withdrawals, confirmations, international payment intents and vault transfers).',
  },
  two_factor_enrolment_required: {
    status: 403,
    when: 'The merchant requires a second factor and the signed-in user has none yet: enrol one (`/api/dashboard/two-factor`) first.',
  },
  forbidden: { status: 403, when: 'Reserved for framework errors of that status.' },
  resource_not_found: {
    status: 404,
    when: 'Unknown id, or one of another merchant (business, collection, payment intent, withdrawal, international payment intent; a dashboard user, invitation, API key or session).',
  },
  route_not_found: {
    status: 404,
    when: 'No such route (this includes a known path with a method it does not take), or a test helper called on a live deployment.',
  },
  quote_not_found: { status: 404, when: "Unknown quote, one of another merchant, or an option that is not one of the quote's." },
  method_not_allowed: { status: 405, when: 'Reserved for framework errors of that status.' },
  request_timeout: {
    status: 408,
    when:
      "The request body stalled or arrived too slowly (see [Request limits and timeouts](#request-limits-and-timeouts)), or the request's headers never " +
      'finished arriving; the connection is closed.',
  },
  email_taken: { status: 409, when: 'Dashboard sign-up with an e-mail that already has an account: log in instead.' },
  already_member: { status: 409, when: 'An invitation for an e-mail that already has a dashboard account.' },
  webhook_endpoint_limit: { status: 409, when: 'The merchant already has 16 webhook endpoints: delete one first.' },
  api_key_inactive: { status: 409, when: 'Rolling an API key that is revoked, expired or already rolled: roll its successor.' },
  last_owner: { status: 409, when: "Removing or demoting the merchant's last owner: make another user owner first." },
  two_factor_state_conflict: {
    status: 409,
    when: 'Enrolling a second factor that is already on, confirming one never enrolled, or turning off one that is not on.',
  },
  conflict: { status: 409, when: 'A status change two requests raced for, which the second one loses: read the resource and decide again.' },
  agreement_not_accepted: { status: 409, when: 'KYB submitted before the business accepted its agreement.' },
  agreement_already_accepted: { status: 409, when: 'A fresh agreement link asked for after acceptance.' },
  kyb_state_conflict: {
    status: 409,
    when:
      'KYB submitted (POST) while `kyb.status` is `processing`, `verified` or `declined`; corrected (PATCH) while it is anything but `action_required`; or ' +
      'the application changed while a correction was on its way (read the state, send again).',
  },
  idempotency_key_reused: {
    status: 409,
    when:
      'This `Idempotency-Key` was used for a different request (other data, or another route). Never carries `Retry-After`: do not retry, use a new key ' +
      'for a new operation.',
  },
  merchant_reference_in_use: { status: 409, when: 'Another payment intent (or withdrawal) of yours has this `merchantReference`.' },
  payment_not_received: { status: 409, when: 'Confirming a payment intent that has not received its payment.' },
  payment_intent_expired: { status: 409, when: 'Confirming a payment intent that expired unfunded.' },
  payment_intent_already_confirmed: { status: 409, when: 'Confirming a payment intent twice (with a new key; the same key replays the first answer).' },
  insufficient_funds: {
    status: 409,
    when: 'A withdrawal, an international payment intent or a vault transfer over the available balance (amount plus fee). Nothing is reserved.',
  },
  quote_expired: { status: 409, when: 'An international payment intent from a quote past its `expiresAt` (15 minutes): ask for a new quote.' },
  quote_already_used: { status: 409, when: 'An international payment intent from a quote that already paid for one.' },
  kyb_not_verified: {
    status: 409,
    when: 'A quote, an international payment intent or a vault transfer for a business whose `kyb.status` is not `verified`.',
  },
  naira_account_not_active: {
    status: 409,
    when: 'A test transfer asked for into a business that has no active Naira account (not requested, not opened yet, or closed).',
  },
  payload_too_large: {
    status: 413,
    when:
      'A document over 8 MiB or documents over 50 MiB in total once decoded (`details` names the documents); a body over its limit (1 MiB; 72 MiB for ' +
      'the KYB routes); a KYB application over 256 KiB apart from its documents.',
  },
  uri_too_long: { status: 414, when: 'A path segment over 100 characters.' },
  unsupported_media_type: { status: 415, when: 'A body that is not `application/json`, or a compressed body (`Content-Encoding`).' },
  idempotency_request_in_progress: {
    status: 423,
    when: 'An identical request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds and you get its answer.',
  },
  rate_limited: { status: 429, when: 'Over a rate limit; `Retry-After` says when to retry (see [Rate limits](#rate-limits)).' },
  request_header_fields_too_large: { status: 431, when: "The request's headers are too large; the connection is closed." },
  internal_error: { status: 500, when: 'A bug on our side; logged with its request id.' },
  service_unavailable: {
    status: 503,
    when:
      'A dependency (PostgreSQL, Redis, a rail) is unavailable (`Retry-After: 1`), or too many document uploads are in progress on that server ' +
      '(`Retry-After: 5`). Retry after `Retry-After` seconds, with the same `Idempotency-Key`.',
  },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The HTTP status of each code. */
export const ERROR_STATUS = Object.fromEntries(Object.entries(ERRORS).map(([code, { status }]) => [code, status])) as {
  readonly [C in ErrorCode]: (typeof ERRORS)[C]['status'];
};

/** Code used when only an HTTP status is known (framework errors). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'route_not_found';
    case 405:
      return 'method_not_allowed';
    case 408:
      return 'request_timeout';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 414:
      return 'uri_too_long';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 431:
      return 'request_header_fields_too_large';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}
