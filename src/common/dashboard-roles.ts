/**
 * A dashboard user's role: `owner` everything (the team and money-moving actions included),
 * `developer` API keys and every read, `viewer` reads only and never a secret.
 */
export const DASHBOARD_ROLES = ['owner', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];
