import { StateMachine } from '../../common/state-machine/state-machine';

/**
 * A transfer out of a vault: `pending` (funds reserved; once `raw_tx` is set it is signed) →
 * `submitted` (broadcast) → `confirmed` at the chain's confirmation count, or `failed` (reverted,
 * or refused before it left) with its reservation returned. A Solana transaction whose blockhash
 * expired before it landed goes back to `pending`, to be signed anew.
 */
export const VAULT_TRANSFER_STATES = new StateMachine('status', {
  pending: ['submitted', 'failed'],
  submitted: ['pending', 'confirmed', 'failed'],
  confirmed: [],
  failed: [],
});
export type VaultTransferStatus = (typeof VAULT_TRANSFER_STATES)['states'][number];

/**
 * A line of a vault's transactions. A deposit is `pending` until its block has the chain's
 * confirmations, then `confirmed` (credited), or `dropped` when its block left the canonical
 * chain first, and `pending` again if its transaction is seen in another block. A transfer's
 * line moves with its transfer.
 */
export const VAULT_TRANSACTION_STATES = new StateMachine('status', {
  pending: ['submitted', 'confirmed', 'failed', 'dropped'],
  submitted: ['pending', 'confirmed', 'failed'],
  confirmed: [],
  failed: [],
  dropped: ['pending'],
});
export type VaultTransactionStatus = (typeof VAULT_TRANSACTION_STATES)['states'][number];
