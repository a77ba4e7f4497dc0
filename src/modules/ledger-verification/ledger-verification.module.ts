import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobsModule } from '../../jobs';
import { RailReconciliationModule } from '../international-intents';
import { LedgerModule } from '../ledger';
import { VaultReconciliationModule } from '../vault';
import { LedgerVerificationEntity } from './ledger-verification.entity';
import { LEDGER_VERIFICATION_JOBS, LEDGER_VERIFICATION_QUEUE } from './ledger-verification.jobs';
import { LedgerVerificationRepository } from './ledger-verification.repository';
import { LedgerVerificationSchedule } from './ledger-verification.schedule';
import { LedgerVerificationService } from './ledger-verification.service';

/** Owns `ledger_verifications`: the ledger's verification, as `ledger:verify` runs it and as the worker runs it on a schedule. */
@Module({
  imports: [TypeOrmModule.forFeature([LedgerVerificationEntity]), LedgerModule, RailReconciliationModule, VaultReconciliationModule],
  providers: [LedgerVerificationService, LedgerVerificationRepository],
  exports: [LedgerVerificationService],
})
export class LedgerVerificationModule {}

/** The worker's schedule of it (apart, so `ledger:verify` needs no queue). */
@Module({
  imports: [LedgerVerificationModule, JobsModule.forFeature(LEDGER_VERIFICATION_QUEUE, Object.values(LEDGER_VERIFICATION_JOBS))],
  providers: [LedgerVerificationSchedule],
})
export class LedgerVerificationScheduleModule {}
