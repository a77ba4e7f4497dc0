import { AppError, ErrorDetail, ValidationFailedError } from '../../common/errors/app-error';

export class AgreementNotAcceptedError extends AppError {
  constructor() {
    super('agreement_not_accepted', 'Agreement has not been accepted');
  }
}

export class KybNotSubmittableError extends AppError {
  constructor(status: string) {
    super('kyb_state_conflict', `A KYB application cannot be submitted while kyb.status is ${status}`);
  }
}

/** Same code as a refused submission: a correction is a resubmission, from fewer states. */
export class KybNotCorrectableError extends AppError {
  constructor(status: string) {
    super('kyb_state_conflict', `A KYB application can be corrected only while kyb.status is action_required, not ${status}`);
  }
}

/** A correction raced another change of the application it corrects. */
export class KybApplicationChangedError extends AppError {
  constructor() {
    super('kyb_state_conflict', 'The KYB application changed while this correction was sent; read the onboarding state and send it again');
  }
}

export class KybApplicationInvalidError extends ValidationFailedError {
  constructor(details: ErrorDetail[]) {
    super(details, 'KYB application breaks the onboarding rules');
  }
}

export class DocumentsTooLargeError extends AppError {
  constructor(message: string, details: ErrorDetail[]) {
    super('payload_too_large', message, details);
  }
}

/** A body past KYB_BODY_LIMIT, by Content-Length or as it streams in; the rest is not read. */
export class BodyTooLargeError extends AppError {
  constructor() {
    super('payload_too_large', 'Request body is too large', [], { Connection: 'close' });
  }
}

export class ApplicationTooLargeError extends AppError {
  constructor() {
    super('payload_too_large', 'The application apart from its documents is over 256 KiB', [], { Connection: 'close' });
  }
}

export class UploadCapacityError extends AppError {
  constructor() {
    // The body is refused unread: closing the connection stops the client from sending it.
    super('service_unavailable', 'Too many document uploads in progress, retry later', [], { 'Retry-After': '5', Connection: 'close' });
  }
}
