import { MoneyObjectSource, stepsBeforeFinal } from '../../common/census/money-object-source';
import { VAULT_TRANSFER_STATES } from './vault.states';

/** A vault transfer is signed and broadcast (`pending`), then waits for its confirmations (`submitted`): each timed from its move. */
export const VAULT_TRANSFER_CENSUS: MoneyObjectSource = {
  kind: 'vault_transfer',
  table: 'vault_transfers',
  history: { table: 'vault_transfer_status_history', column: 'vault_transfer_id' },
  steps: stepsBeforeFinal(VAULT_TRANSFER_STATES),
};
