import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the business routes live (the controller mounts them; links and next-page URLs name them). */
export const POBO_USERS_PATH = '/api/merchant/pobo/users';
/** The same reads for the dashboard, with a session. */
export const DASHBOARD_BUSINESSES_PATH = `${DASHBOARD_API_PATH}/businesses`;
