/** Where the Merchant Dashboard's setup endpoints live: sessions only, never an API key. */
export const DASHBOARD_PATH = '/api/dashboard';
