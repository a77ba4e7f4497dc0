import { ErrorCode } from './error-codes';

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * Base of every error a module throws on purpose. The code is stable and clients branch on it;
 * the HTTP status is derived from the code in one place (`ERROR_STATUS`).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends AppError {
  constructor(details: ErrorDetail[], message = 'Request validation failed') {
    super('validation_failed', message, details);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'A dependency is unavailable, retry later', retryAfterSeconds = 1) {
    super('service_unavailable', message, [], { 'Retry-After': String(retryAfterSeconds) });
  }
}
