import { AuditModule } from '../audit';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { BankRailModule } from '../bank-rail';
import { IdempotencyModule } from '../idempotency';
import { LedgerModule } from '../ledger';
import { WithdrawalPayoutsService } from './withdrawal-payouts.service';
import { WithdrawalStates } from './withdrawal-states.service';
import { WithdrawalsController } from './withdrawals.controller';
import { WITHDRAWALS_JOBS, WITHDRAWALS_QUEUE } from './withdrawals.jobs';
import { WithdrawalsRepository } from './withdrawals.repository';
import { WithdrawalsService } from './withdrawals.service';

/** Owns `withdrawals` and `withdrawal_status_history`. */
@Module({
  imports: [AuditModule, BankRailModule, IdempotencyModule, LedgerModule, JobsModule.forFeature(WITHDRAWALS_QUEUE, Object.values(WITHDRAWALS_JOBS))],
  controllers: [WithdrawalsController],
  providers: [WithdrawalsService, WithdrawalPayoutsService, WithdrawalStates, WithdrawalsRepository],
  exports: [WithdrawalPayoutsService],
})
export class WithdrawalsModule {}
