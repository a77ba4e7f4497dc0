import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WithdrawalStatusHistoryEntity } from './withdrawal-status-history.entity';
import { WithdrawalEntity } from './withdrawal.entity';
import { AuditModule } from '../audit';
import { EventsModule } from '../events';
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
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([WithdrawalStatusHistoryEntity, WithdrawalEntity]),
    AuditModule,
    BankRailModule,
    EventsModule,
    IdempotencyModule,
    LedgerModule,
    JobsModule.forFeature(WITHDRAWALS_QUEUE, Object.values(WITHDRAWALS_JOBS)),
  ],
  controllers: [WithdrawalsController],
  providers: [WithdrawalsService, WithdrawalPayoutsService, WithdrawalStates, WithdrawalsRepository],
  exports: [WithdrawalPayoutsService],
})
export class WithdrawalsModule {}
