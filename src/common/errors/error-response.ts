import { HttpException } from '@nestjs/common';
import { AppError, ErrorDetail } from './app-error';
import { codeForStatus, ERROR_STATUS, ErrorCode } from './error-codes';

export interface ErrorBody {
  message: string;
  error: { code: ErrorCode; details: ErrorDetail[] };
  requestId: string;
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody;
  /** Unexpected failures are logged with their stack; expected ones are not. */
  unexpected: boolean;
  /** Set when PostgreSQL or Redis was unreachable: logged once per outage, not per request. */
  dependencyFailure?: DependencyFailure;
}

/** What every request may need besides this process. */
export type Dependency = 'database' | 'redis';

export interface DependencyFailure {
  dependency: Dependency;
  /** The error code and the driver's own fixed wording (`connect ECONNREFUSED`): no SQL, parameters or stack. */
  reason: string;
}

const DEPENDENCY_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const DEPENDENCY_DOWN_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|Connection is closed|enableOfflineQueue|ECONNREFUSED|Reached the max retries per request|is not queryable/i;
/**
 * TypeORM's refusals on a query runner whose connection was lost: the driver releases the runner
 * when its connection errors (a backend terminated mid-transaction, say), and the next statement,
 * commit or rollback on it throws these instead of a connection error.
 */
const RELEASED_CONNECTION_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);
/** ioredis's refusals while it has no connection; the rest of the list is pg's or the network's under it. */
const REDIS_DOWN_MESSAGE = /Connection is closed|enableOfflineQueue|Reached the max retries per request/i;

type ErrorLike = { name?: unknown; code?: unknown; syscall?: unknown; message?: unknown; driverError?: unknown; errors?: unknown[] };

/** Which dependency was unreachable behind a failure; undefined for anything else (bugs among them). */
export function dependencyFailure(err: unknown): DependencyFailure | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const candidate = e as ErrorLike;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if ((typeof candidate.code === 'string' && DEPENDENCY_DOWN_CODES.has(candidate.code)) || DEPENDENCY_DOWN_MESSAGE.test(message)) {
      return { dependency: REDIS_DOWN_MESSAGE.test(message) ? 'redis' : 'database', reason: failureReason(candidate, message) };
    }
    if (typeof candidate.name === 'string' && RELEASED_CONNECTION_ERRORS.has(candidate.name)) {
      return { dependency: 'database', reason: `${candidate.name}: the connection was lost` };
    }
    for (const inner of Array.isArray(candidate.errors) ? candidate.errors : []) {
      const found = dependencyFailure(inner);
      if (found) return found;
    }
    e = candidate.driverError;
  }
  return undefined;
}

/** True for failures of PostgreSQL or Redis being unreachable, as opposed to bugs. */
export function isDependencyDown(err: unknown): boolean {
  return dependencyFailure(err) !== undefined;
}

function failureReason(error: ErrorLike, message: string): string {
  // A network error's message adds only the address to its syscall and code.
  if (typeof error.syscall === 'string' && typeof error.code === 'string') return `${error.syscall} ${error.code}`;
  const firstLine = message.split('\n', 1)[0].slice(0, 200);
  if (typeof error.code === 'string' && !firstLine.includes(error.code)) return `${error.code} ${firstLine}`.trim();
  return firstLine || 'unknown error';
}

function isFastifyClientError(err: unknown): err is { code: string; statusCode: number } {
  const candidate = err as { code?: unknown; statusCode?: unknown } | null;
  return (
    typeof candidate?.code === 'string' &&
    candidate.code.startsWith('FST_') &&
    typeof candidate.statusCode === 'number' &&
    candidate.statusCode >= 400 &&
    candidate.statusCode < 500
  );
}

const FRAMEWORK_MESSAGES: Partial<Record<ErrorCode, string>> = {
  route_not_found: 'Route not found',
  payload_too_large: 'Request body is too large',
  unsupported_media_type: 'Content-Type must be application/json',
};

function fromCode(code: ErrorCode, message: string, details: ErrorDetail[] = []) {
  return { status: ERROR_STATUS[code], code, message, details };
}

/** The one mapping from any thrown value to the contract's error response. */
export function toErrorResponse(err: unknown, requestId: string): ErrorResponse {
  let mapped: { status: number; code: ErrorCode; message: string; details: ErrorDetail[] };
  let headers: Record<string, string> = {};
  let unexpected = false;
  let failure: DependencyFailure | undefined;

  if (err instanceof AppError) {
    mapped = { status: ERROR_STATUS[err.code], code: err.code, message: err.message, details: err.details };
    headers = err.headers;
  } else if (err instanceof HttpException) {
    const status = err.getStatus();
    // Framework errors (Nest, and Fastify's wrapped by Nest: body too large, media type).
    const code = codeForStatus(status);
    mapped = fromCode(code, FRAMEWORK_MESSAGES[code] ?? (status >= 500 ? 'Internal server error' : err.message));
    unexpected = status >= 500;
  } else if (isFastifyClientError(err)) {
    // Fastify's own refusals where Nest does not wrap them (a route-level error handler).
    const code = codeForStatus(err.statusCode);
    mapped = fromCode(code, FRAMEWORK_MESSAGES[code] ?? 'Bad request');
  } else if ((failure = dependencyFailure(err))) {
    mapped = fromCode('service_unavailable', 'A dependency is unavailable, retry later');
    headers = { 'Retry-After': '1' };
  } else {
    mapped = fromCode('internal_error', 'Internal server error');
    unexpected = true;
  }

  return {
    status: mapped.status,
    headers,
    unexpected,
    ...(failure ? { dependencyFailure: failure } : {}),
    body: { message: mapped.message, error: { code: mapped.code, details: mapped.details }, requestId },
  };
}
