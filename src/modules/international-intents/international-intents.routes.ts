/** Where the international payment routes live. */
export const QUOTES_PATH = '/api/merchant/quotes';
export const INTERNATIONAL_INTENTS_PATH = '/api/merchant/international-payment-intents';
/** Receipts are served outside the merchant API: the URL itself is the credential. */
export const RECEIPTS_PATH = '/receipts';
