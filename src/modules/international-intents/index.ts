/** What other modules may use of the international payment intents module. */
export { InternationalIntentsModule } from './international-intents.module';
export { InternationalSettlementService } from './international-settlement.service';
export { InternationalRecovery } from './international-recovery.service';
export { installReceiptPageErrors } from './receipts.controller';
export { RECEIPTS_PATH } from './international-intents.routes';
export type { ReceivableOutcome } from './international-postings';
export { RailReconciliationModule } from './rail-reconciliation.module';
export { RailReconciliationService } from './rail-reconciliation.service';
export type { RailReconciliation } from './rail-reconciliation.service';
export { INTERNATIONAL_INTENT_SEARCH } from './international-intents.search';
export { INTERNATIONAL_INTENT_CENSUS } from './international-intents.census';
