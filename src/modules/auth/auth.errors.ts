import { AppError } from '../../common/errors/app-error';
import { LimitState, rateLimitHeaders } from './rate-limit-state';

/** One body for every authentication failure, so a caller learns nothing about why. */
export class UnauthorizedError extends AppError {
  constructor(headers: Record<string, string> = {}) {
    // RFC 9110 asks a 401 to name the scheme; both accepted headers carry the same key.
    super('unauthorized', 'Invalid or missing API key', [], { ...headers, 'WWW-Authenticate': 'Bearer realm="merchant-api"' });
  }
}

/** `x-api-key` and `Authorization: Bearer` carrying two different keys: which one acts is never guessed. */
export class ConflictingCredentialsError extends AppError {
  constructor(headers: Record<string, string> = {}) {
    super('conflicting_credentials', 'x-api-key and Authorization carry different keys; send one key', [], {
      ...headers,
      'WWW-Authenticate': 'Bearer realm="merchant-api"',
    });
  }
}

/** A dashboard route called without a valid session, or with an API key. */
export class SessionRequiredError extends AppError {
  constructor(headers: Record<string, string> = {}) {
    super('session_required', 'Sign in to the Merchant Dashboard: this route takes a session, not an API key', [], headers);
  }
}

/** An unsafe dashboard request without its session's CSRF token, or from another origin. */
export class CsrfFailedError extends AppError {
  constructor() {
    super('csrf_failed', 'The request lacks the X-CSRF-Token of its session, or comes from another origin');
  }
}

/** The signed-in user's role does not allow the route. */
/** The API key lacks the permission the route declares. */
export class PermissionDeniedError extends AppError {
  constructor(permission: string) {
    super('permission_denied', `This API key lacks the ${permission} permission this operation needs`);
  }
}

export class RoleForbiddenError extends AppError {
  constructor() {
    super('role_forbidden', 'Your role does not allow this; ask an owner of your team');
  }
}

export class TwoFactorEnrolmentRequiredError extends AppError {
  constructor() {
    super('two_factor_enrolment_required', 'Your team requires a second factor: set one up before anything else');
  }
}

/** A rail callback whose signature does not hold. */
export class InvalidSignatureError extends AppError {
  constructor(headers: Record<string, string> = {}) {
    super('unauthorized', 'The callback signature is missing, invalid or outside the five-minute window', [], headers);
  }
}

export class RateLimitedError extends AppError {
  constructor(state: LimitState) {
    super('rate_limited', 'Too many requests, retry later', [], { ...rateLimitHeaders(state), 'Retry-After': String(state.resetSeconds) });
  }
}

export class MerchantNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Merchant not found');
  }
}

export class ApiKeyNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'API key not found');
  }
}

export class ApiKeyInactiveError extends AppError {
  constructor() {
    super('api_key_inactive', 'Only an active key can be rolled: this one is revoked, expired or rolled already');
  }
}
