import type { DashboardRole } from '../../common/dashboard-roles';

/**
 * What an API key may do, as Stripe's restricted keys: `read` every GET; `write` businesses, KYB,
 * quotes, creating payment intents and the test helpers; `move_money` withdrawals, confirming a
 * payment intent, international payment intents and vault transfers. Each merchant route
 * declares the one it needs; a key without it is refused with 403 `permission_denied`.
 */
export const API_KEY_PERMISSIONS = ['read', 'write', 'move_money'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/**
 * The permissions a dashboard user may give a key, and hold on one it rolls or revokes: an owner
 * any, a developer never `move_money` (a developer may not move money, so may not make a key that
 * does). Also what a key gets when its creator names none.
 */
export function grantableBy(role: DashboardRole): ApiKeyPermission[] {
  return role === 'owner' ? [...API_KEY_PERMISSIONS] : role === 'developer' ? ['read', 'write'] : [];
}

/** The permissions in their canonical order, each once. */
export function normalizePermissions(permissions: readonly ApiKeyPermission[]): ApiKeyPermission[] {
  return API_KEY_PERMISSIONS.filter((permission) => permissions.includes(permission));
}
