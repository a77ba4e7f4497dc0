import { AppError } from '../../common/errors/app-error';

export class InvalidTransitionError extends AppError {
  constructor(field: string, from: string, to: string) {
    super('kyb_state_conflict', `Cannot change ${field} status from ${from} to ${to}`);
  }
}
