import { AppError } from '../../common/errors/app-error';

export class CollectionNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Collection not found');
  }
}

/** A test transfer needs an account to send it to. */
export class NairaAccountNotActiveError extends AppError {
  constructor() {
    super(
      'naira_account_not_active',
      'The business has no active Naira account: it needs allowNairaCollection and a verified KYB, and it must not have been closed',
    );
  }
}

export class NoOpenNairaAccountError extends AppError {
  constructor(businessId: string) {
    super('conflict', `Business ${businessId} has no open Naira account`);
  }
}
