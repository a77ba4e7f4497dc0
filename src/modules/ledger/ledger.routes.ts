import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the balance routes live. */
export const BALANCE_PATH = '/api/merchant/balance';
export const BALANCE_TRANSACTIONS_PATH = '/api/merchant/balance-transactions';
/** The same reads for the dashboard, with a session. */
export const DASHBOARD_BALANCE_PATH = `${DASHBOARD_API_PATH}/balance`;
export const DASHBOARD_BALANCE_TRANSACTIONS_PATH = `${DASHBOARD_API_PATH}/balance-transactions`;
export const DASHBOARD_DAILY_ACTIVITY_PATH = `${DASHBOARD_API_PATH}/balance/daily`;
