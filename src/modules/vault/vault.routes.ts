import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the vault's routes live (a business's vault hangs under the business routes). */
export const VAULT_TRANSFERS_PATH = '/api/merchant/vault-transfers';
export const VAULT_TEST_HELPERS_PATH = '/api/merchant/test-helpers/vault';
/** The dashboard's: a business's vault under its business, transfers and the test deposit of their own. */
/** The merchant-wide vault page's reads. */
export const DASHBOARD_VAULT_PATH = `${DASHBOARD_API_PATH}/vault`;
export const DASHBOARD_VAULT_BUSINESSES_PATH = `${DASHBOARD_API_PATH}/businesses`;
export const DASHBOARD_VAULT_TRANSFERS_PATH = `${DASHBOARD_API_PATH}/vault-transfers`;
export const DASHBOARD_VAULT_TEST_HELPERS_PATH = `${DASHBOARD_API_PATH}/test-helpers/vault`;
