/**
 * Every event type, by the object it is about. A module records only its own objects' types.
 * The international intents' returns and receivables are their own types besides the steps: a
 * rejection that left money at a rail opens a receivable (`receivable_opened`), each rail that
 * gives it back completes a return (`return_completed`), and the receivable closes when the
 * bridge rail has returned it or an operator settled it by hand (`receivable_cleared`).
 */
export const EVENT_TYPES = [
  'pobo_business.agreement_accepted',
  'pobo_business.kyb_status_changed',
  'pobo_business.naira_account_activated',
  'payment_intent.created',
  'payment_intent.payment_returned',
  'payment_intent.funds_received',
  'payment_intent.succeeded',
  'payment_intent.expired',
  'withdrawal.created',
  'withdrawal.succeeded',
  'withdrawal.failed',
  'international_payment_intent.created',
  'international_payment_intent.status_changed',
  'international_payment_intent.settled',
  'international_payment_intent.rejected',
  'international_payment_intent.receivable_opened',
  'international_payment_intent.return_completed',
  'international_payment_intent.receivable_cleared',
  'vault.deposit_pending',
  'vault.deposit_confirmed',
  'vault.deposit_dropped',
  'vault_transfer.submitted',
  'vault_transfer.confirmed',
  'vault_transfer.failed',
  'webhook_endpoint.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** How long events are kept (and listed), in days. */
export const EVENT_RETENTION_DAYS = 30;
