/** What other modules may use of the withdrawals module. */
export { WithdrawalsModule } from './withdrawals.module';
export { WithdrawalPayoutsService } from './withdrawal-payouts.service';
export { WITHDRAWAL_SEARCH } from './withdrawals.search';
export { WITHDRAWAL_CENSUS } from './withdrawals.census';
