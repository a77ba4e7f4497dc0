/** What other modules may use of the vault module. */
export { VaultModule } from './vault.module';
export { VaultService } from './vault.service';
export { VaultReconciliationModule } from './vault-reconciliation.module';
export { VaultReconciliationService } from './vault-reconciliation.service';
export type { VaultDifference } from './vault-reconciliation.service';
export { VAULT_TRANSFER_SEARCH } from './vault-transfers.search';
export { VAULT_TRANSFER_CENSUS } from './vault-transfers.census';
