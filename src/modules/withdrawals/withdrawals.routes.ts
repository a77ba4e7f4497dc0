/** Where the withdrawal routes live. */
export const WITHDRAWALS_PATH = '/api/merchant/withdrawals';
export const BANKS_PATH = '/api/merchant/banks';
