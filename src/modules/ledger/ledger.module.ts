import { Module } from '@nestjs/common';
import { BalanceController } from './balance.controller';
import { BalanceService } from './balance.service';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

/** Owns `ledger_accounts`, `ledger_transactions`, `ledger_entries` and `balance_transactions`. */
@Module({
  controllers: [BalanceController],
  providers: [LedgerService, LedgerRepository, BalanceService],
  exports: [LedgerService],
})
export class LedgerModule {}
