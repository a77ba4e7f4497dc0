import { StateMachine } from '../../common/state-machine/state-machine';

/**
 * The settlement pipeline, forward only: `pending` (funds reserved) → `processing` (picked up by
 * the worker) → `bridge_initiated` → `bridge_confirmed` (the bridge leg) → `withdrawal_initiated`
 * → `withdrawal_confirmed` (the payout leg) → `settled`. `rejected` from any state before
 * `settled`: compliance, a failed leg, or an operator; the reservation goes back then, once.
 */
export const INTERNATIONAL_INTENT_STATES = new StateMachine('status', {
  pending: ['processing', 'rejected'],
  processing: ['bridge_initiated', 'rejected'],
  bridge_initiated: ['bridge_confirmed', 'rejected'],
  bridge_confirmed: ['withdrawal_initiated', 'rejected'],
  withdrawal_initiated: ['withdrawal_confirmed', 'rejected'],
  withdrawal_confirmed: ['settled', 'rejected'],
  settled: [],
  rejected: [],
});

export type InternationalIntentStatus = (typeof INTERNATIONAL_INTENT_STATES)['states'][number];

/** Order of the pipeline's states, for "at or past" questions (never for moves: those are the machine's). */
export const PIPELINE_ORDER: readonly InternationalIntentStatus[] = [
  'pending',
  'processing',
  'bridge_initiated',
  'bridge_confirmed',
  'withdrawal_initiated',
  'withdrawal_confirmed',
  'settled',
];
