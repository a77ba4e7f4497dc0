/** What other modules may use of the agreements module. */
export { AgreementsModule } from './agreements.module';
export { AgreementsService } from './agreements.service';
export type { AcceptanceEvidence, LinkGoneReason } from './agreements.service';
export type { AgreementLinkEntity } from './agreement-link.entity';
export { AgreementAlreadyAcceptedError } from './agreements.errors';
export { AGREEMENT_PAGE_PATH, TOKEN_PATTERN } from './agreement.constants';
export { TERMS, TERMS_TITLE, TERMS_VERSION } from './agreement.terms';
export type { TermsSection } from './agreement.terms';
