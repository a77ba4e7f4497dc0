/** What other modules may use of the ledger's verification. */
export { LedgerVerificationModule, LedgerVerificationScheduleModule } from './ledger-verification.module';
export { LedgerVerificationService } from './ledger-verification.service';
