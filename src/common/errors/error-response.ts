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
  /timeout exceeded when trying to connect|Connection terminated|Connection is closed|enableOfflineQueue|ECONNREFUSED|Reached the max retries per request/i;

/** True for failures of PostgreSQL or Redis being unreachable, as opposed to bugs. */
export function isDependencyDown(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const candidate = e as { code?: unknown; message?: unknown; driverError?: unknown; errors?: unknown[] };
    if (typeof candidate.code === 'string' && DEPENDENCY_DOWN_CODES.has(candidate.code)) return true;
    if (typeof candidate.message === 'string' && DEPENDENCY_DOWN_MESSAGE.test(candidate.message)) return true;
    if (Array.isArray(candidate.errors) && candidate.errors.some((x) => isDependencyDown(x))) return true;
    e = candidate.driverError;
  }
  return false;
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

  if (err instanceof AppError) {
    mapped = { status: ERROR_STATUS[err.code], code: err.code, message: err.message, details: err.details };
    headers = err.headers;
  } else if (err instanceof HttpException) {
    const status = err.getStatus();
    // Framework errors (Nest, and Fastify's wrapped by Nest: body too large, media type).
    const code = codeForStatus(status);
    mapped = fromCode(code, FRAMEWORK_MESSAGES[code] ?? (status >= 500 ? 'Internal server error' : err.message));
    unexpected = status >= 500;
  } else if (isDependencyDown(err)) {
    mapped = fromCode('service_unavailable', 'A dependency is unavailable, retry later');
    headers = { 'Retry-After': '1' };
    unexpected = true;
  } else {
    mapped = fromCode('internal_error', 'Internal server error');
    unexpected = true;
  }

  return {
    status: mapped.status,
    headers,
    unexpected,
    body: { message: mapped.message, error: { code: mapped.code, details: mapped.details }, requestId },
  };
}
