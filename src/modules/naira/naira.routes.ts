/** Where the collections routes live (a business's collections hang under the business routes). */
export const COLLECTIONS_PATH = '/api/merchant/collections';
export const NAIRA_TEST_HELPERS_PATH = '/api/merchant/test-helpers/pobo/users';
