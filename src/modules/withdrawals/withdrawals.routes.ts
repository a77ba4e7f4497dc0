import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the withdrawal routes live. */
export const WITHDRAWALS_PATH = '/api/merchant/withdrawals';
/** The same reads for the dashboard, with a session. */
export const DASHBOARD_WITHDRAWALS_PATH = `${DASHBOARD_API_PATH}/withdrawals`;
export const BANKS_PATH = '/api/merchant/banks';
