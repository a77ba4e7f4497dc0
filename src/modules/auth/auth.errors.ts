import { AppError } from '../../common/errors/app-error';

/** One body for every authentication failure, so a caller learns nothing about why. */
export class UnauthorizedError extends AppError {
  constructor() {
    super('unauthorized', 'Invalid or missing API key');
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
