/** What other modules may use of the vault module. */
export { VaultModule } from './vault.module';
export { VaultTransfersService } from './vault-transfers.service';
export { VaultService } from './vault.service';
export { VaultReconciliationModule } from './vault-reconciliation.module';
export { VaultReconciliationService } from './vault-reconciliation.service';
export type { VaultDifference } from './vault-reconciliation.service';
