import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

/** Where the event routes live. */
export const EVENTS_PATH = '/api/merchant/events';
/** The same reads for the dashboard, with a session. */
export const DASHBOARD_EVENTS_PATH = `${DASHBOARD_API_PATH}/events`;
/** The merchant's webhook endpoints: setup endpoints, with a session. */
export const WEBHOOK_ENDPOINTS_PATH = `${DASHBOARD_API_PATH}/webhook-endpoints`;
