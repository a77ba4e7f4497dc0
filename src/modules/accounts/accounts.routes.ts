import { DASHBOARD_API_PATH } from '../../common/http/api-paths';

export const DASHBOARD_PATH = DASHBOARD_API_PATH;
export const MEMBERS_PATH = `${DASHBOARD_PATH}/members`;
export const INVITATIONS_PATH = `${DASHBOARD_PATH}/invitations`;
export const API_KEYS_PATH = `${DASHBOARD_PATH}/api-keys`;
