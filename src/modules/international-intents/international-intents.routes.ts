import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the international payment routes live. */
export const QUOTES_PATH = '/api/merchant/quotes';
export const INTERNATIONAL_INTENTS_PATH = '/api/merchant/international-payment-intents';
/** The same reads for the dashboard, with a session. */
export const DASHBOARD_INTERNATIONAL_INTENTS_PATH = `${DASHBOARD_API_PATH}/international-payment-intents`;
/** Receipts are served outside the merchant API: the URL itself is the credential. */
export const RECEIPTS_PATH = '/receipts';
export const DASHBOARD_QUOTES_PATH = `${DASHBOARD_API_PATH}/quotes`;
