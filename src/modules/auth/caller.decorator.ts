import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiDashboardOperation, ApiOperationSpec } from '../../common/http/api-docs';
import { WithRouteConfig } from '../../common/http/route-config';
import { MerchantPrincipal } from './api-keys.service';
import { SessionRequiredError, UnauthorizedError } from './auth.errors';
import { DASHBOARD_ROLES, DashboardRole } from '../../common/dashboard-roles';
import type { ApiKeyPermission } from './api-key-permissions';

/** The rails that call us back, each signing with its own secret. */
export type SignedRail = 'bank_rail' | 'bridge_rail' | 'payout_rail';

/** The signed-in dashboard user of a request (a `DashboardRoute`'s caller). */
export interface DashboardPrincipal {
  userId: string;
  email: string;
  merchantId: string;
  role: DashboardRole;
  sessionId: string;
  /** The merchant requires a second factor and this user has none yet: only enrolment is open. */
  twoFactorMissing: boolean;
}

/** Who may call a dashboard route: its roles, and whether a user still to enrol a required second factor may. */
export interface DashboardAccess {
  roles: readonly DashboardRole[];
  beforeTwoFactor: boolean;
}

/**
 * Checks a dashboard request's session from its headers alone (cookie, CSRF token, Origin) and
 * says who it is; implemented by the accounts module, which owns sessions.
 */
export interface SessionAuthenticator {
  authenticate(request: FastifyRequest): Promise<DashboardPrincipal>;
}

/**
 * How a route is called, declared by its handler (the route's config, read by the authentication
 * hooks before any body byte): with a merchant's API key; with a Merchant Dashboard session; by a
 * rail, its body signed; by anyone, limited per client IP (`limited: false` only for a liveness
 * probe, which must never be refused).
 */
export type Caller =
  | { kind: 'merchant'; permission?: ApiKeyPermission }
  | ({ kind: 'dashboard' } & DashboardAccess)
  | { kind: 'rail'; rail: SignedRail }
  | { kind: 'public'; limited: boolean };

/**
 * Methods that change nothing: a merchant route answering one needs only `read`, and a dashboard
 * request with one needs no CSRF token.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The key of the caller in a route's config. */
export const CALLER = 'caller';

/** The caller a route declared; undefined for a route that declared none (refused at boot) and for the 404 handler. */
export function callerOf(config: unknown): Caller | undefined {
  return (config as Record<string, Caller | undefined> | undefined)?.[CALLER];
}

/**
 * Authentication itself happens before the body is read (`installCallerAuthentication`); this
 * guard makes a merchant handler refuse a request that somehow reached it without a merchant.
 */
@Injectable()
class MerchantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!context.switchToHttp().getRequest<FastifyRequest>().merchant) throw new UnauthorizedError();
    return true;
  }
}

/**
 * Called with a merchant's API key (`x-api-key` or `Authorization: Bearer`) that holds
 * `permission`: a read needs `read` and names none; a change names `write` or `move_money`, and
 * one that names none stops the boot. The OpenAPI operation shows both schemes.
 */
export const MerchantRoute = (permission?: Exclude<ApiKeyPermission, 'read'>): MethodDecorator =>
  applyDecorators(
    WithRouteConfig({ [CALLER]: { kind: 'merchant', permission } satisfies Caller }),
    UseGuards(MerchantGuard),
    ApiSecurity('MerchantApiKey'),
    ApiBearerAuth('MerchantBearer'),
  );

@Injectable()
class DashboardGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!context.switchToHttp().getRequest<FastifyRequest>().dashboardUser) throw new SessionRequiredError();
    return true;
  }
}

/**
 * Called with a Merchant Dashboard session (its cookie; unsafe methods also carry the session's
 * CSRF token). An API key is refused here with 401 `session_required`; a user whose role is not
 * in `roles` (every role unless given) with 403 `role_forbidden`; a user who must still enrol the
 * merchant's required second factor with 403 `two_factor_enrolment_required`, unless
 * `beforeTwoFactor` (the routes that let them enrol, sign out, or see who they are).
 */
export const DashboardRoute = (access: Partial<DashboardAccess> = {}): MethodDecorator =>
  applyDecorators(
    WithRouteConfig({
      [CALLER]: { kind: 'dashboard', roles: access.roles ?? DASHBOARD_ROLES, beforeTwoFactor: access.beforeTwoFactor ?? false } satisfies Caller,
    }),
    UseGuards(DashboardGuard),
    ApiCookieAuth('DashboardSession'),
  );

/**
 * A dashboard route and its OpenAPI operation in one: the refusals its access rules can answer
 * (`role_forbidden`, `two_factor_enrolment_required`) are documented from the same rules.
 */
export const DashboardOperation = (access: Partial<DashboardAccess>, spec: ApiOperationSpec & { unsafe: boolean }): MethodDecorator =>
  applyDecorators(
    DashboardRoute(access),
    ApiDashboardOperation({
      ...spec,
      errors: [
        ...(spec.errors ?? []),
        ...(access.roles && access.roles.length < DASHBOARD_ROLES.length ? (['role_forbidden'] as const) : []),
        ...(access.beforeTwoFactor ? [] : (['two_factor_enrolment_required'] as const)),
      ],
    }),
  );

/** A rail's signed callback: the signature over the exact body bytes is checked before the handler. */
export const RailCallbackRoute = (rail: SignedRail): MethodDecorator => WithRouteConfig({ [CALLER]: { kind: 'rail', rail } satisfies Caller });

/** Open to anyone: pages, documents, health; limited per client IP unless `limited` is false. */
export const PublicRoute = (options: { limited: boolean } = { limited: true }): MethodDecorator =>
  WithRouteConfig({ [CALLER]: { kind: 'public', limited: options.limited } satisfies Caller });

/** The merchant whose API key authenticated the request, for an operation only a key calls that needs more than its id. */
export const CurrentMerchant = createParamDecorator(
  (_: unknown, context: ExecutionContext): MerchantPrincipal => context.switchToHttp().getRequest<FastifyRequest>().merchant!,
);

/**
 * The id of the merchant a request acts for, whoever called: the merchant whose API key
 * authenticated it, or the merchant of the signed-in dashboard user. An operation that both call
 * (`Operation`) reads it so, and so does one that only a key calls.
 */
export const MerchantId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return (request.merchant ?? request.dashboardUser)!.merchantId;
});

/** The signed-in dashboard user (a `DashboardRoute`'s handler parameter). */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): DashboardPrincipal => context.switchToHttp().getRequest<FastifyRequest>().dashboardUser!,
);
