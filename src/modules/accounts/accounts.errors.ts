import { AppError } from '../../common/errors/app-error';

/** The same answer for an unknown e-mail and a wrong password: it must not tell which. */
export class InvalidCredentialsError extends AppError {
  constructor() {
    super('invalid_credentials', 'The e-mail or the password is not right');
  }
}

export class EmailTakenError extends AppError {
  constructor() {
    super('email_taken', 'An account with this e-mail exists: log in instead');
  }
}

export class SessionNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Session not found');
  }
}
