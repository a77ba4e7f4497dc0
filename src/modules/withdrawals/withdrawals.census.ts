import type { MoneyObjectSource } from '../../common/census/money-object-source';

/** A withdrawal waits to be sent to the bank rail (`pending`), then for the rail's answer (`processing`). */
export const WITHDRAWAL_CENSUS: MoneyObjectSource = {
  kind: 'withdrawal',
  table: 'withdrawals',
  history: { table: 'withdrawal_status_history', column: 'withdrawal_id' },
  steps: { pending: 'updated_at', processing: 'updated_at' },
};
