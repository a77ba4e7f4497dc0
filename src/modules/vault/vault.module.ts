import { EventsModule } from '../events';
import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VaultChainCursorEntity } from './vault-chain-cursor.entity';
import { VaultTransactionStatusHistoryEntity } from './vault-transaction-status-history.entity';
import { VaultTransactionEntity } from './vault-transaction.entity';
import { VaultTransferStatusHistoryEntity } from './vault-transfer-status-history.entity';
import { VaultTransferEntity } from './vault-transfer.entity';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { AuditModule } from '../audit';
import { ChainsModule } from '../chains';
import { IdempotencyModule } from '../idempotency';
import { LedgerModule } from '../ledger';
import { PoboBusinessesModule } from '../pobo-businesses';
import { WalletsModule } from '../wallets';
import { VaultController, VaultTestHelpersController } from './vault.controller';
import { VaultDepositsService } from './vault-deposits.service';
import { VAULT_CHAINS_QUEUE, VAULT_JOBS, VAULT_QUEUE } from './vault.jobs';
import { VaultRepository } from './vault.repository';
import { VaultService } from './vault.service';
import { VaultTransfersController } from './vault-transfers.controller';
import { VaultTransfersRepository } from './vault-transfers.repository';
import { VaultTransfersService } from './vault-transfers.service';

/** The businesses' USDC vaults: owns `vault_transactions`, `vault_transfers` and `vault_chain_cursors`. */
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([
      VaultChainCursorEntity,
      VaultTransactionStatusHistoryEntity,
      VaultTransactionEntity,
      VaultTransferStatusHistoryEntity,
      VaultTransferEntity,
    ]),
    AuditModule,
    ChainsModule,
    IdempotencyModule,
    LedgerModule,
    PoboBusinessesModule,
    WalletsModule,
    EventsModule,
    JobsModule.forFeature(VAULT_QUEUE, [VAULT_JOBS.sendTransfer]),
    JobsModule.forFeature(VAULT_CHAINS_QUEUE, [VAULT_JOBS.followChains, VAULT_JOBS.settleTransfers]),
  ],
  controllers: [VaultController, VaultTestHelpersController, VaultTransfersController],
  providers: [VaultService, VaultDepositsService, VaultRepository, VaultTransfersService, VaultTransfersRepository],
  exports: [VaultService],
})
export class VaultModule {}
