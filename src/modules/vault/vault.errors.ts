import { AppError } from '../../common/errors/app-error';

/** Not an address of the chain named: a transfer there could never arrive. */
export class AddressInvalidError extends AppError {
  constructor(chain: string, field = 'address') {
    super('address_invalid', `${field} is not a ${chain} address`, [{ field, message: `must be a ${chain} address` }]);
  }
}

/** An address of the chain that could never give the money back (no key holds it), or the sending vault itself. */
export class AddressCannotReceiveError extends AppError {
  constructor(chain: string, why: 'keyless' | 'own_vault', field = 'toAddress') {
    const message =
      why === 'own_vault' ? `${field} is the vault's own ${chain} address` : `${field} is a ${chain} address no key holds: USDC sent there is lost`;
    super('address_invalid', message, [
      { field, message: why === 'own_vault' ? 'must not be the sending vault' : 'must be an address that can send USDC back' },
    ]);
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
