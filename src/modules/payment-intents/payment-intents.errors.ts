import { AppError } from '../../common/errors/app-error';

export class PaymentIntentNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Payment intent not found');
  }
}

export class MerchantReferenceInUseError extends AppError {
  constructor() {
    super('merchant_reference_in_use', 'Another payment intent already has this merchantReference', [
      { field: 'merchantReference', message: 'is already in use' },
    ]);
  }
}

export class PaymentNotReceivedError extends AppError {
  constructor() {
    super('payment_not_received', 'No payment of the full amount has been received for this intent yet');
  }
}

export class PaymentIntentExpiredError extends AppError {
  constructor() {
    super('payment_intent_expired', 'The payment intent expired before it was funded');
  }
}

export class PaymentIntentAlreadyConfirmedError extends AppError {
  constructor() {
    super('payment_intent_already_confirmed', 'The payment intent is already confirmed');
  }
}

/** A move the intent's state machine does not allow (a bug, or a race the row lock settles). */
export class PaymentIntentStateConflictError extends AppError {
  constructor(from: string, to: string) {
    super('conflict', `Cannot change the payment intent's status from ${from} to ${to}`);
  }
}
