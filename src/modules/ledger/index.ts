/** What other modules may use of the ledger module. */
export { LedgerModule } from './ledger.module';
export { LedgerService } from './ledger.service';
export type { LedgerVerification } from './ledger.repository';
export type { AccountRef, Posting, MerchantBalance, OpenReceivable, PlatformAccount, VaultAccount, VaultAccountBalance, VaultRef } from './ledger.service';
export { InsufficientFundsError } from './ledger.errors';
export { transferReturn } from './return-postings';
