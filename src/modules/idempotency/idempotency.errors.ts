import { AppError } from '../../common/errors/app-error';
import { MAX_KEY_LENGTH, MIN_KEY_LENGTH } from './idempotency.key';

export class IdempotencyKeyRequiredError extends AppError {
  constructor() {
    super('idempotency_key_required', 'This operation moves money: send an Idempotency-Key header, unique for the operation');
  }
}

export class IdempotencyKeyInvalidError extends AppError {
  constructor() {
    super('idempotency_key_invalid', `Idempotency-Key must be ${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters`, [
      { field: 'Idempotency-Key', message: `must be ${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters` },
    ]);
  }
}

/** Never carries Retry-After: the request will not succeed however long the client waits. */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super('idempotency_key_reused', 'This Idempotency-Key was used for a different request; use a new key for a new operation');
  }
}

export class IdempotencyRequestInProgressError extends AppError {
  constructor(retryAfterSeconds: number) {
    super('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress; retry after Retry-After seconds', [], {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

/**
 * The request lost its in-flight lock to a retry that took over (it ran past the lock, its
 * process stalled): what it was about to write is rolled back, and the retry's record stands.
 */
export class IdempotencyLockLostError extends AppError {
  constructor() {
    // Its client retries after Retry-After and gets the answer of the request that took over.
    super('idempotency_request_in_progress', 'A retry with this Idempotency-Key took the request over; retry after Retry-After seconds', [], {
      'Retry-After': '1',
    });
  }
}
