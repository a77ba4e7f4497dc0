import { AppError } from '../../common/errors/app-error';

/** Not an address of the chain named: a transfer there could never arrive. */
export class AddressInvalidError extends AppError {
  constructor(chain: string) {
    super('address_invalid', `address is not a ${chain} address`, [{ field: 'address', message: `must be a ${chain} address` }]);
  }
}
