import { AppError } from '../../common/errors/app-error';

export class AuditEntryNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Audit entry not found');
  }
}
