import { AppError } from '../../common/errors/app-error';

/** Not an address of the chain named: a transfer there could never arrive. */
export class AddressInvalidError extends AppError {
  constructor(chain: string, field = 'address') {
    super('address_invalid', `${field} is not a ${chain} address`, [{ field, message: `must be a ${chain} address` }]);
  }
}

/** Only a business that passed KYB may send USDC out of its vault. */
export class VaultKybNotVerifiedError extends AppError {
  constructor() {
    super('kyb_not_verified', 'The business has not passed KYB verification: its vault cannot send');
  }
}

export class VaultTransferNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Vault transfer not found');
  }
}
