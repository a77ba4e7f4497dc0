/**
 * The error codes of the API and their HTTP statuses: those modules throw, and those framework
 * errors map to (`codeForStatus`). A code is added with the feature that answers it. Codes are
 * part of the public contract: add new ones, never rename.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_cursor: 400,
  idempotency_key_required: 400,
  idempotency_key_invalid: 400,
  account_number_invalid: 400,
  unsupported_corridor: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  resource_not_found: 404,
  route_not_found: 404,
  quote_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  agreement_not_accepted: 409,
  agreement_already_accepted: 409,
  kyb_state_conflict: 409,
  idempotency_key_reused: 409,
  merchant_reference_in_use: 409,
  payment_not_received: 409,
  payment_intent_expired: 409,
  payment_intent_already_confirmed: 409,
  insufficient_funds: 409,
  quote_expired: 409,
  quote_already_used: 409,
  kyb_not_verified: 409,
  naira_account_not_active: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  idempotency_request_in_progress: 423,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
