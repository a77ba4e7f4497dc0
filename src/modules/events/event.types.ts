/**
 * Every event type: the object it carries (the name of that object's schema in the OpenAPI
 * document, the one its GET answers with) and the change that records it. A module records only
 * its own objects' types. The international intents' returns and receivables are their own types
 * besides the steps: a rejection that left money at a rail opens a receivable, each rail that
 * gives the money back completes a return, and the receivable closes when the bridge rail has
 * returned it or an operator settled it by hand.
 */
export const EVENT_CATALOGUE = {
  'pobo_business.agreement_accepted': { object: 'PoboBusinessDto', when: 'The business accepted the terms on its agreement page.' },
  'pobo_business.kyb_status_changed': { object: 'PoboBusinessDto', when: "The business's KYB status moved (`kyb.status`): every move." },
  'pobo_business.naira_account_activated': { object: 'PoboBusinessDto', when: "The business's own Naira account is open (`nairaAccount`)." },
  'payment_intent.created': { object: 'PaymentIntentDto', when: 'A payment intent was created, with its virtual account.' },
  'payment_intent.payment_returned': {
    object: 'PaymentIntentDto',
    when: 'A transfer to the intent did not match it and is being sent back (`payments[].returnReason`).',
  },
  'payment_intent.funds_received': { object: 'PaymentIntentDto', when: 'A transfer matched the intent: it awaits your confirmation.' },
  'payment_intent.succeeded': { object: 'PaymentIntentDto', when: 'The intent was confirmed: its amount is in the available balance.' },
  'payment_intent.expired': { object: 'PaymentIntentDto', when: 'The intent expired unpaid.' },
  'withdrawal.created': { object: 'WithdrawalDto', when: 'A withdrawal was accepted and its amount and fee reserved.' },
  'withdrawal.succeeded': { object: 'WithdrawalDto', when: 'The bank rail paid the withdrawal out.' },
  'withdrawal.failed': { object: 'WithdrawalDto', when: 'The withdrawal failed (`failureCode`); the reservation is back in the available balance.' },
  'international_payment_intent.created': {
    object: 'InternationalIntentDto',
    when: 'An international payment intent was created and its `sourceAmount` reserved.',
  },
  'international_payment_intent.status_changed': {
    object: 'InternationalIntentDto',
    when: 'The intent moved one step along its pipeline (`status`): every step, the last ones included.',
  },
  'international_payment_intent.settled': { object: 'InternationalIntentDto', when: 'The recipient was paid: the receipt is ready (`receiptUrl`).' },
  'international_payment_intent.rejected': {
    object: 'InternationalIntentDto',
    when: 'The intent was rejected (`adminNote`); its whole `sourceAmount` is back in your balance.',
  },
  'international_payment_intent.receivable_opened': {
    object: 'InternationalIntentDto',
    when: 'The rejection came after the money reached a rail: the service asks that rail for it back (your balance was restored at the rejection already).',
  },
  'international_payment_intent.return_completed': { object: 'InternationalIntentDto', when: 'A rail gave back the money of a rejected intent.' },
  'international_payment_intent.receivable_cleared': {
    object: 'InternationalIntentDto',
    when: 'Nothing is owed by a rail for the intent any more: returned in full, or settled by an operator.',
  },
  'vault.deposit_pending': { object: 'VaultTransactionDto', when: "USDC arrived in a business's vault: pending until the chain's confirmation count." },
  'vault.deposit_confirmed': { object: 'VaultTransactionDto', when: 'The deposit has its confirmations and is credited to the vault.' },
  'vault.deposit_dropped': { object: 'VaultTransactionDto', when: 'The block of a pending deposit left the chain: nothing was credited.' },
  'vault_transfer.submitted': { object: 'VaultTransferDto', when: 'The transfer out was signed and broadcast (`txHash`).' },
  'vault_transfer.confirmed': { object: 'VaultTransferDto', when: "The transfer has the chain's confirmations." },
  'vault_transfer.failed': { object: 'VaultTransferDto', when: 'The transfer failed (`failureReason`); its reservation is back in the vault.' },
  'webhook_endpoint.test': { object: 'WebhookEndpointDto', when: 'You asked the dashboard to send the endpoint a test; it goes to that endpoint alone.' },
} as const satisfies Record<string, { object: string; when: string }>;

export type EventType = keyof typeof EVENT_CATALOGUE;

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** How long events are kept (and listed), in days. */
export const EVENT_RETENTION_DAYS = 30;
