/** Where the business routes live (the controller mounts them; links and next-page URLs name them). */
export const POBO_USERS_PATH = '/api/merchant/pobo/users';
