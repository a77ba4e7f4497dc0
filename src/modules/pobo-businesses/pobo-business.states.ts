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
