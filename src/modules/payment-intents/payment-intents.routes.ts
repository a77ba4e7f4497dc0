import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the payment intent routes live. */
export const PAYMENT_INTENTS_PATH = '/api/merchant/payment-intents';
/** The same reads for the dashboard, with a session. */
export const DASHBOARD_PAYMENT_INTENTS_PATH = `${DASHBOARD_API_PATH}/payment-intents`;
export const PAYMENT_INTENT_TEST_HELPERS_PATH = '/api/merchant/test-helpers/payment-intents';
export const DASHBOARD_PAYMENT_INTENT_TEST_HELPERS_PATH = `${DASHBOARD_API_PATH}/test-helpers/payment-intents`;
