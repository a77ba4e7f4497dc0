import { AppError } from '../../common/errors/app-error';

export class WithdrawalNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Withdrawal not found');
  }
}

export class WithdrawalReferenceInUseError extends AppError {
  constructor() {
    super('merchant_reference_in_use', 'Another withdrawal already has this merchantReference', [{ field: 'merchantReference', message: 'is already in use' }]);
  }
}

export class AccountNumberInvalidError extends AppError {
  constructor() {
    super('account_number_invalid', 'accountNumber is not a valid NUBAN for bankCode', [
      { field: 'accountNumber', message: 'check digit does not match bankCode' },
    ]);
  }
}

export class WithdrawalStateConflictError extends AppError {
  constructor(from: string, to: string) {
    super('conflict', `Cannot change the withdrawal's status from ${from} to ${to}`);
  }
}
