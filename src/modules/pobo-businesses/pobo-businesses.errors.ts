import { AppError } from '../../common/errors/app-error';

/** Unknown and not-owned ids are the same error: another merchant's business does not exist for you. */
export class PoboBusinessNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'POBO business not found');
  }
}

/** A status move the business's state machine does not allow. */
export class BusinessStateConflictError extends AppError {
  constructor(field: string, from: string, to: string) {
    super('kyb_state_conflict', `Cannot change ${field} status from ${from} to ${to}`);
  }
}
