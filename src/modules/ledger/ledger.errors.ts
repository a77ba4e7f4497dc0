import { AppError } from '../../common/errors/app-error';

export class InsufficientFundsError extends AppError {
  constructor() {
    super('insufficient_funds', 'The available balance does not cover this amount');
  }
}
