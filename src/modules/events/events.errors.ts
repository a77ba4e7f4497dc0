import { AppError } from '../../common/errors/app-error';

export class EventNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Event not found');
  }
}
