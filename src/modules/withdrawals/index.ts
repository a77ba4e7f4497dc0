/** What other modules may use of the withdrawals module. */
export { WithdrawalsModule } from './withdrawals.module';
export { WithdrawalsService } from './withdrawals.service';
export { WithdrawalPayoutsService } from './withdrawal-payouts.service';
