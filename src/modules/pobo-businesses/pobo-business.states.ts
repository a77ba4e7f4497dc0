import { StateMachine } from '../../common/state-machine/state-machine';

/**
 * The one definition of a business's three status fields and the moves between them. Anything
 * not listed is refused by `PoboBusinessStates`, and every allowed move is written to the
 * append-only `business_status_history`.
 */
export const AGREEMENT_STATES = new StateMachine('agreement', {
  pending: ['accepted'],
  accepted: [],
});

export const KYB_STATES = new StateMachine('kyb', {
  agreement_pending: ['not_started'],
  not_started: ['processing'],
  processing: ['verified', 'declined', 'action_required'],
  action_required: ['processing'],
  verified: [],
  declined: [],
});

export const NAIRA_COLLECTION_STATES = new StateMachine('naira_collection', {
  not_requested: ['pending'],
  pending: ['active', 'failed'],
  failed: ['pending'],
  // An operator closed the account: the business collects no Naira any more (no new state: a
  // closed account shows as never requested, its past collections still listed).
  active: ['not_requested'],
});

type StateOf<M> = M extends StateMachine<infer S> ? S : never;
export type AgreementStatus = StateOf<typeof AGREEMENT_STATES>;
export type KybStatus = StateOf<typeof KYB_STATES>;
export type NairaCollectionStatus = StateOf<typeof NAIRA_COLLECTION_STATES>;

/** An item of `kyb.pendingRequirements`: `{ code, field, message }`. */
export interface PendingRequirement {
  code: string;
  field: string;
  message: string;
}
