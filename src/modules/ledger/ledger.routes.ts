/** Where the balance routes live. */
export const BALANCE_PATH = '/api/merchant/balance';
export const BALANCE_TRANSACTIONS_PATH = '/api/merchant/balance-transactions';
