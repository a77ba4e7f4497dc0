/** What other modules may use of the bank rail module. */
export { BankRailModule } from './bank-rail.module';
export { BANK_RAIL } from './bank-rail';
export type { BankRail, PayoutRequest, RailEvent, RailPayout, RailPayoutStatus, RailTransfer, VirtualAccount } from './bank-rail';
export { verifyRailSignature } from './rail-signature';
export { callRailForRequest, TEST_SENDER, TestSenderFields, testTransferKey } from './test-transfers';
