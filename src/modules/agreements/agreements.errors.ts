import { AppError } from '../../common/errors/app-error';

export class AgreementAlreadyAcceptedError extends AppError {
  constructor() {
    super('agreement_already_accepted', 'Agreement has already been accepted; no new link can be issued');
  }
}
