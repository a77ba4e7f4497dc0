import { applyDecorators, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger';
import { ERROR_STATUS, ErrorCode } from '../errors/error-codes';
import { ErrorDetailDto } from './error-body.dto';

const integer = (description: string, required: boolean) => ({ description, required, schema: { type: 'integer', minimum: 0 } });

/** On every answer. */
export const REQUEST_ID_HEADER: HeadersObject = {
  'X-Request-Id': {
    description: "Id of this request, equal to `requestId` in error bodies (a replayed answer's body is the first answer's, with its id); quote it to support",
    required: true,
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
  },
};
/**
 * On answers of a merchant route: always once the key is known (successes), and on refusals
 * where the limit was already counted.
 */
const rateLimitHeaders = (required: boolean): HeadersObject => ({
  'RateLimit-Limit': integer('Requests per second this API key may make (sustained)', required),
  'RateLimit-Remaining': integer('Requests left in the current one-second window', required),
  'RateLimit-Reset': integer('Seconds until the window resets', required),
});
/** On a page of a list. */
export const LIST_HEADERS: HeadersObject = { Link: { description: '`<…>; rel="next"`, present when a next page exists', schema: { type: 'string' } } };
const RETRY_AFTER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
};

/** What a status means, whatever the code. */
const STATUS_MEANING: Record<number, string> = {
  400: 'The request is malformed or fails validation; `details` names each field',
  401: 'Authentication failed (a missing, unknown, revoked or malformed API key always has the same body)',
  403: "Refused: a change without its session's CSRF token, or from another origin",
  404: 'Unknown id, or one of another merchant',
  408: 'The body stalled or arrived too slowly; the connection is closed',
  409: 'The resource is in a state that forbids the operation',
  413: 'The body, a document or the documents in total are too large',
  414: 'A path parameter is longer than any id',
  415: 'The body is not uncompressed `application/json`',
  423: 'An identical request with this Idempotency-Key is still in progress; retry after `Retry-After` seconds',
  429: 'Too many requests; wait `Retry-After` seconds',
  503: 'A dependency is down or the service is shedding load; retry after `Retry-After` seconds',
};

/** Codes every merchant route may answer. */
const MERCHANT_ROUTE_ERRORS: ErrorCode[] = ['unauthorized', 'conflicting_credentials', 'permission_denied', 'rate_limited', 'service_unavailable'];
/** Codes every dashboard route taking a session may answer (`csrf_failed` only when it changes something). */
const DASHBOARD_ROUTE_ERRORS: ErrorCode[] = ['session_required', 'rate_limited', 'service_unavailable'];

/** Who calls an operation: a merchant's key, a dashboard session (`unsafe`: with its CSRF token), or anyone. */
type Audience = 'merchant' | 'dashboard' | 'dashboard-unsafe' | 'public';
const AUDIENCE_ERRORS: Record<Audience, ErrorCode[]> = {
  merchant: MERCHANT_ROUTE_ERRORS,
  dashboard: DASHBOARD_ROUTE_ERRORS,
  'dashboard-unsafe': [...DASHBOARD_ROUTE_ERRORS, 'csrf_failed'],
  public: [],
};
/** Codes every route that reads a JSON body may answer. */
export const JSON_BODY_ERRORS: ErrorCode[] = ['invalid_json', 'validation_failed', 'request_timeout', 'payload_too_large', 'unsupported_media_type'];

function errorSchema(codes: ErrorCode[]) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['message', 'error', 'requestId'],
    properties: {
      message: { type: 'string', description: 'For people; do not parse it' },
      error: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'details'],
        properties: {
          code: { type: 'string', enum: codes, description: 'Stable identifier to branch on' },
          details: { type: 'array', items: { $ref: getSchemaPath(ErrorDetailDto) } },
        },
      },
      requestId: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
    },
  };
}

/**
 * The error answers of an operation: one response per status, whose `error.code` is the enum of
 * exactly the codes that status can carry there, with the headers it carries.
 */
function errorResponses(codes: ErrorCode[], limited: boolean): MethodDecorator[] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return [...byStatus].map(([status, statusCodes]) =>
    ApiResponse({
      status,
      description: `${STATUS_MEANING[status] ?? 'Refused'}: ${statusCodes.map((c) => `\`${c}\``).join(', ')}`,
      headers: {
        ...REQUEST_ID_HEADER,
        ...(limited ? rateLimitHeaders(status === 429) : {}),
        ...(status === 423 || status === 429 || status === 503 ? RETRY_AFTER : {}),
      },
      content: { 'application/json': { schema: errorSchema(statusCodes) } },
    }),
  );
}

export interface ApiOperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  /** The success answer. */
  success: { status: number; type?: Type<unknown>; description: string; headers?: HeadersObject; example?: unknown };
  /** Codes particular to this operation; those of every merchant route and of JSON bodies are added. */
  errors?: ErrorCode[];
  /** The JSON body the operation reads, with an example of a whole request; `optional` when it may be left out. */
  body?: { type: Type<unknown>; example: object; optional?: boolean };
}

/**
 * Documents a merchant operation whole: its id, its success answer with the headers every merchant
 * answer carries, and every error answer with its codes. One decorator per operation, so the
 * document and the code that answers stay side by side.
 */
export function ApiMerchantOperation(spec: ApiOperationSpec): MethodDecorator {
  return applyDecorators(...documentOperation(spec, 'merchant'));
}

/** A Merchant Dashboard operation taking a session; `unsafe` when it changes something (and so needs the CSRF token). */
export function ApiDashboardOperation(spec: ApiOperationSpec & { unsafe: boolean }): MethodDecorator {
  return applyDecorators(...documentOperation(spec, spec.unsafe ? 'dashboard-unsafe' : 'dashboard'));
}

/** An operation outside the merchant API (no key, no rate limit). */
export function ApiPublicOperation(spec: ApiOperationSpec): MethodDecorator {
  return applyDecorators(...documentOperation(spec, 'public'));
}

function documentOperation(spec: ApiOperationSpec, audience: Audience): MethodDecorator[] {
  const limited = audience !== 'public';
  const codes = [...AUDIENCE_ERRORS[audience], ...(spec.body ? JSON_BODY_ERRORS : []), ...(spec.errors ?? [])];
  return [
    ApiExtraModels(ErrorDetailDto),
    ApiOperation({ operationId: spec.operationId, summary: spec.summary, description: spec.description ?? spec.summary }),
    ApiResponse({
      status: spec.success.status,
      description: spec.success.description,
      type: spec.success.type,
      headers: { ...REQUEST_ID_HEADER, ...(limited ? rateLimitHeaders(true) : {}), ...spec.success.headers },
      ...(spec.success.example === undefined ? {} : { example: spec.success.example }),
    }),
    ...(spec.body
      ? [ApiBody({ type: spec.body.type, required: !spec.body.optional, examples: { example: { summary: 'A whole request', value: spec.body.example } } })]
      : []),
    ...errorResponses(codes, limited),
  ];
}
