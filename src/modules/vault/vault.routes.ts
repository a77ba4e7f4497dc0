/** Where the vault's routes live (a business's vault hangs under the business routes). */
export const VAULT_TRANSFERS_PATH = '/api/merchant/vault-transfers';
export const VAULT_TEST_HELPERS_PATH = '/api/merchant/test-helpers/vault';
