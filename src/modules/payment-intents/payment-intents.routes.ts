/** Where the payment intent routes live. */
export const PAYMENT_INTENTS_PATH = '/api/merchant/payment-intents';
export const PAYMENT_INTENT_TEST_HELPERS_PATH = '/api/merchant/test-helpers/payment-intents';
