/** What other modules may use of the international payment intents module. */
export { InternationalIntentsModule } from './international-intents.module';
export { InternationalSettlementService } from './international-settlement.service';
export { installReceiptPageErrors } from './receipts.controller';
export { RECEIPTS_PATH } from './international-intent.mapper';
export type { ReceivableOutcome } from './international-postings';
