import type { MoneyObjectSource } from '../../common/census/money-object-source';

/** A payment intent awaits payment until it expires (the expiry job ends it then); a payment received settles at once. */
export const PAYMENT_INTENT_CENSUS: MoneyObjectSource = {
  kind: 'payment_intent',
  table: 'payment_intents',
  history: { table: 'payment_intent_status_history', column: 'payment_intent_id' },
  steps: { awaiting_payment: 'expires_at', funds_received: 'updated_at' },
};
