/** What other modules may use of the business module. */
export { PoboBusinessesModule } from './pobo-businesses.module';
export { PoboBusinessesService } from './pobo-businesses.service';
export { POBO_USERS_PATH } from './pobo-businesses.routes';
export { PoboBusinessStates } from './pobo-business-states.service';
export type { BusinessStatusChange } from './pobo-business-states.service';
export { PoboBusinessAgreementService } from './pobo-business-agreement.service';
export type { AcceptOutcome, LinkLookup } from './pobo-business-agreement.service';
export type { PoboBusinessEntity } from './pobo-business.entity';
export type { PoboBusinessRow, VaultOwnerRow } from './pobo-businesses.repository';
export { mapPoboBusiness } from './pobo-business.mapper';
export { POBO_BUSINESS_EXAMPLE, PoboBusinessDto, PoboBusinessEnvelopeDto, PendingRequirementDto } from './dto/pobo-business.response';
export { KYB_STATES } from './pobo-business.states';
export type { KybStatus, PendingRequirement } from './pobo-business.states';
export { POBO_BUSINESS_SEARCH } from './pobo-businesses.search';
