import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BalanceActivityEntity } from './balance-activity.entity';
import { BalanceTransactionEntity } from './balance-transaction.entity';
import { LedgerAccountEntity } from './ledger-account.entity';
import { LedgerCheckpointAccountEntity } from './ledger-checkpoint-account.entity';
import { LedgerCheckpointEntity } from './ledger-checkpoint.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';
import { LedgerTransactionEntity } from './ledger-transaction.entity';
import { Module } from '@nestjs/common';
import { BalanceController } from './balance.controller';
import { BalanceService } from './balance.service';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

/**
 * Owns `ledger_accounts`, `ledger_transactions`, `ledger_entries`, `balance_transactions`,
 * `balance_activity` and the verification's checkpoint (`ledger_checkpoint`, `ledger_checkpoint_accounts`).
 */
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([
      BalanceActivityEntity,
      BalanceTransactionEntity,
      LedgerAccountEntity,
      LedgerCheckpointAccountEntity,
      LedgerCheckpointEntity,
      LedgerEntryEntity,
      LedgerTransactionEntity,
    ]),
  ],
  controllers: [BalanceController],
  providers: [LedgerService, LedgerRepository, BalanceService],
  exports: [LedgerService],
})
export class LedgerModule {}
