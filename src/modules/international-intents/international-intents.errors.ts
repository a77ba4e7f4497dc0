import { AppError } from '../../common/errors/app-error';

export class QuoteNotFoundError extends AppError {
  constructor() {
    super('quote_not_found', 'Quote not found, or the option is not one of its options');
  }
}

export class QuoteExpiredError extends AppError {
  constructor() {
    super('quote_expired', 'The quote has expired; ask for a new one');
  }
}

export class QuoteAlreadyUsedError extends AppError {
  constructor() {
    super('quote_already_used', 'The quote was already used by another international payment intent');
  }
}

export class KybNotVerifiedError extends AppError {
  constructor() {
    super('kyb_not_verified', "The quote's business has not passed KYB verification");
  }
}

export class UnsupportedCorridorError extends AppError {
  constructor(country: string, currency: string) {
    super('unsupported_corridor', `No route pays ${currency} to ${country}`, [
      { field: 'destinationCountry', message: `${country}/${currency} is not a supported corridor` },
    ]);
  }
}

export class InternationalIntentNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'International payment intent not found');
  }
}

/** A move the intent's state machine does not allow (a bug, or a race the row lock settles). */
export class InternationalIntentStateConflictError extends AppError {
  constructor(from: string, to: string) {
    super('conflict', `Cannot change the international payment intent's status from ${from} to ${to}`);
  }
}

export class NoOpenReceivableError extends AppError {
  constructor(id: string) {
    super('conflict', `International payment intent ${id} has no open receivable`);
  }
}
