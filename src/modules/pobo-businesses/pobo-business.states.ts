export const NAIRA_COLLECTION_STATUSES = ['not_requested', 'pending', 'active', 'failed'] as const;
export type NairaCollectionStatus = (typeof NAIRA_COLLECTION_STATUSES)[number];

export const AGREEMENT_STATUSES = ['pending', 'accepted'] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number];

export const KYB_STATUSES = [
  'agreement_pending',
  'not_started',
  'processing',
  'action_required',
  'verified',
  'declined',
] as const;
export type KybStatus = (typeof KYB_STATUSES)[number];

/** `{ code, field, message }`, as fixed by CONTRACT.md. */
export interface PendingRequirement {
  code: string;
  field: string;
  message: string;
}

export const sqlIn = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The one definition of which status changes are allowed. Anything not listed is refused by
 * `BusinessStatesService`, and every allowed change is written to the append-only history.
 */
export const TRANSITIONS = {
  agreement: {
    pending: ['accepted'],
    accepted: [],
  } satisfies Record<AgreementStatus, AgreementStatus[]>,
  kyb: {
    agreement_pending: ['not_started'],
    not_started: ['processing'],
    processing: ['verified', 'declined', 'action_required'],
    action_required: ['processing'],
    verified: [],
    declined: [],
  } satisfies Record<KybStatus, KybStatus[]>,
  naira_collection: {
    not_requested: ['pending'],
    pending: ['active', 'failed'],
    failed: ['pending'],
    active: [],
  } satisfies Record<NairaCollectionStatus, NairaCollectionStatus[]>,
} as const;

export type StatusField = keyof typeof TRANSITIONS;

/** KYB states from which an application may be submitted. */
export const KYB_SUBMITTABLE: readonly KybStatus[] = ['not_started', 'action_required'];

export function canTransition(field: StatusField, from: string, to: string): boolean {
  const allowed = (TRANSITIONS[field] as Record<string, readonly string[]>)[from];
  return allowed?.includes(to) ?? false;
}
