export const DASHBOARD_PATH = '/api/dashboard';
export const MEMBERS_PATH = `${DASHBOARD_PATH}/members`;
export const INVITATIONS_PATH = `${DASHBOARD_PATH}/invitations`;
export const API_KEYS_PATH = `${DASHBOARD_PATH}/api-keys`;
