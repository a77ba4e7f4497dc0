import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { ChainsModule } from '../chains';
import { IdempotencyModule } from '../idempotency';
import { LedgerModule } from '../ledger';
import { PoboBusinessesModule } from '../pobo-businesses';
import { VaultController, VaultTestHelpersController } from './vault.controller';
import { VaultDepositsService } from './vault-deposits.service';
import { VAULT_JOBS, VAULT_QUEUE } from './vault.jobs';
import { VaultRepository } from './vault.repository';
import { VaultService } from './vault.service';

/** The businesses' USDC vaults: owns `vault_transactions` and `vault_chain_cursors`. */
@Module({
  imports: [ChainsModule, IdempotencyModule, LedgerModule, PoboBusinessesModule, JobsModule.forFeature(VAULT_QUEUE, Object.values(VAULT_JOBS))],
  controllers: [VaultController, VaultTestHelpersController],
  providers: [VaultService, VaultDepositsService, VaultRepository],
  exports: [VaultService],
})
export class VaultModule {}
