import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { LedgerModule } from '../ledger';
import { VaultReconciliationService } from './vault-reconciliation.service';
import { VaultRepository } from './vault.repository';
import { VaultTransfersRepository } from './vault-transfers.repository';

/** The reconciliation of the vaults with their chains, on its own so that `ledger:verify` gets it without the queues. */
@Module({
  imports: [ChainsModule, LedgerModule],
  providers: [VaultReconciliationService, VaultRepository, VaultTransfersRepository],
  exports: [VaultReconciliationService],
})
export class VaultReconciliationModule {}
