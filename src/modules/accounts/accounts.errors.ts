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

export class InvalidLinkError extends AppError {
  constructor() {
    super('invalid_link', 'This link is unknown, used, expired or revoked: ask for a new one');
  }
}

export class AlreadyMemberError extends AppError {
  constructor() {
    super('already_member', 'This e-mail already has a Merchant Dashboard account');
  }
}

export class LastOwnerError extends AppError {
  constructor() {
    super('last_owner', 'A team keeps at least one owner: make another member owner first');
  }
}

export class MemberNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Team member not found');
  }
}

export class InvitationNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Invitation not found');
  }
}

export class TwoFactorRequiredError extends AppError {
  constructor() {
    super('two_factor_required', 'Enter the code from your authenticator app (or a recovery code) as `code`');
  }
}

export class InvalidTwoFactorCodeError extends AppError {
  constructor() {
    super('invalid_two_factor_code', 'The code is wrong, used already, or out of its time window');
  }
}

export class TwoFactorStateError extends AppError {
  constructor(message: string) {
    super('two_factor_state_conflict', message);
  }
}
