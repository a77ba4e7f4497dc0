import { StateMachine } from '../../common/state-machine/state-machine';

/** `awaiting_payment → funds_received → succeeded`, or `awaiting_payment → expired`. */
export const PAYMENT_INTENT_STATES = new StateMachine('status', {
  awaiting_payment: ['funds_received', 'expired'],
  funds_received: ['succeeded'],
  succeeded: [],
  expired: [],
});

export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATES)['states'][number];
