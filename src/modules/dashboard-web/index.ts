/** What other code may use of the dashboard web host. */
export { DASHBOARD_WEB_HEADERS, DASHBOARD_WEB_PATH, installDashboardWeb, isDashboardWebRoute } from './dashboard-web';
