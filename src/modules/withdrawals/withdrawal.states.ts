import { StateMachine } from '../../common/state-machine/state-machine';

/**
 * `pending` (funds reserved) → `processing` (the rail has the payout) → `succeeded`, or `failed`
 * from any of them: refused or failed by the rail, or returned by the bank after succeeding.
 */
export const WITHDRAWAL_STATES = new StateMachine('status', {
  pending: ['processing', 'failed'],
  processing: ['succeeded', 'failed'],
  succeeded: ['failed'],
  failed: [],
});

export type WithdrawalStatus = (typeof WITHDRAWAL_STATES)['states'][number];
