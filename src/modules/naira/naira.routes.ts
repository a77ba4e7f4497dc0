import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the collections routes live (a business's collections hang under the business routes). */
export const COLLECTIONS_PATH = '/api/merchant/collections';
export const NAIRA_TEST_HELPERS_PATH = '/api/merchant/test-helpers/pobo/users';
/** The same reads for the dashboard, with a session: a business's under the dashboard's business routes, one by its id. */
export const DASHBOARD_BUSINESS_COLLECTIONS_PATH = `${DASHBOARD_API_PATH}/businesses/:poboUserId/collections`;
export const DASHBOARD_COLLECTIONS_PATH = `${DASHBOARD_API_PATH}/collections`;
