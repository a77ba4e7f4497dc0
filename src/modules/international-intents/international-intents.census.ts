import { MoneyObjectSource, stepsBeforeFinal } from '../../common/census/money-object-source';
import { INTERNATIONAL_INTENT_STATES } from './international-intent.states';

/** Every step of the settlement pipeline before `settled` or `rejected`, each timed from its move. */
export const INTERNATIONAL_INTENT_CENSUS: MoneyObjectSource = {
  kind: 'international_payment_intent',
  table: 'international_payment_intents',
  history: { table: 'international_payment_intent_status_history', column: 'intent_id' },
  steps: stepsBeforeFinal(INTERNATIONAL_INTENT_STATES),
};
