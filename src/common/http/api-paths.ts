/** The two HTTP APIs: the merchant API (API keys) and the dashboard's (sessions). */
export const MERCHANT_API_PATH = '/api/merchant';
export const DASHBOARD_API_PATH = '/api/dashboard';
