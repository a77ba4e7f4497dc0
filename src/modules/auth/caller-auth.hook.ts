import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyRailSignature } from '../bank-rail';
import { MerchantPrincipal } from './api-keys.service';
import { InvalidSignatureError, PermissionDeniedError, RoleForbiddenError, TwoFactorEnrolmentRequiredError } from './auth.errors';
import { Caller, CALLER, callerOf, DashboardPrincipal, SAFE_METHODS, SessionAuthenticator, SignedRail } from './caller.decorator';
import { MerchantAuthenticator } from './merchant-authenticator.service';
import { rateLimitHeaders } from './rate-limit-state';
import { RateLimitsService } from './rate-limits.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant whose API key authenticated the request; set before the body is read. */
    merchant: MerchantPrincipal | null;
    /** The dashboard user whose session authenticated the request; set before the body is read. */
    dashboardUser: DashboardPrincipal | null;
    /** The exact bytes of a rail callback's body, which its signature covers. */
    rawBody?: string;
  }
}

/** Whether the route takes a signed body whose exact bytes must be kept for its check. */
export function keepsRawBody(request: FastifyRequest): boolean {
  return callerOf(request.routeOptions.config)?.kind === 'rail';
}

/**
 * Who may call each route, as its handler declares it (`MerchantRoute`, `RailCallbackRoute`,
 * `DashboardRoute`, `PublicRoute`); a route that declares nothing stops the boot. Decided before
 * the handler:
 * - merchant routes (an API key) and dashboard routes (a session, see `SessionAuthenticator`) are
 *   authenticated in Fastify's first hook, from the headers alone: no body byte is read, parsed or
 *   validated for a request without a valid credential, and nothing else runs;
 * - public routes count against their client IP's limit (unless declared unlimited), also before
 *   anything else runs;
 * - a rail callback's signature covers its exact bytes, so it is checked once they are parsed,
 *   before the handler; a callback failing it counts as a failed authentication of its IP (the
 *   same budget as wrong API keys), and a valid one is never limited.
 * Unknown routes are left to the 404 handler, which does no work either. `extraPublic` names the
 * routes mounted by a library rather than a handler (the OpenAPI document and its viewer).
 */
export function installCallerAuthentication(
  app: INestApplication,
  fastify: FastifyInstance,
  options: { railSecrets: Readonly<Record<SignedRail, string>>; sessions: SessionAuthenticator; extraPublic: (url: string) => boolean },
): void {
  const authenticator = app.get(MerchantAuthenticator);
  const limits = app.get(RateLimitsService);
  fastify.decorateRequest('merchant', null);
  fastify.decorateRequest('dashboardUser', null);
  fastify.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const caller = callerOf(request.routeOptions.config);
    if (caller?.kind === 'merchant') {
      const { principal, limit } = await authenticator.authenticate(request);
      request.merchant = principal;
      void reply.headers(rateLimitHeaders(limit));
      const permission = caller.permission ?? 'read';
      if (!principal.permissions.includes(permission)) throw new PermissionDeniedError(permission);
    } else if (caller?.kind === 'dashboard') {
      const user = await options.sessions.authenticate(request);
      request.dashboardUser = user;
      void reply.headers(rateLimitHeaders(await limits.consumeForKey(`session:${user.sessionId}`)));
      if (user.twoFactorMissing && !caller.beforeTwoFactor) throw new TwoFactorEnrolmentRequiredError();
      if (!caller.roles.includes(user.role)) throw new RoleForbiddenError();
    } else if (caller?.kind === 'public' && caller.limited) {
      void reply.headers(rateLimitHeaders(await limits.consumeForPublicRoute(request.ip)));
    }
  });

  const verifySignature = (secret: string) => async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers['x-rail-signature'];
    if (typeof header === 'string' && verifyRailSignature(secret, header, request.rawBody ?? '')) return;
    throw new InvalidSignatureError(rateLimitHeaders(await limits.recordAuthFailure(request.ip)));
  };
  fastify.addHook('onRoute', (route) => {
    if (callerOf(route.config) === undefined && options.extraPublic(route.url))
      route.config = { ...route.config, [CALLER]: { kind: 'public', limited: true } satisfies Caller } as typeof route.config;
    const caller = callerOf(route.config);
    if (caller === undefined) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} declares no caller: give its handler MerchantRoute(), DashboardRoute(), RailCallbackRoute() or PublicRoute()`,
      );
    }
    // A change must say what it needs of a key: left unsaid, a money-moving route would need only `read`.
    if (caller.kind === 'merchant' && caller.permission === undefined && [route.method].flat().some((method) => !SAFE_METHODS.has(method))) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} changes something: give its MerchantRoute() the permission it needs ('write' or 'move_money')`,
      );
    }
    if (caller.kind === 'rail') route.preHandler = [verifySignature(options.railSecrets[caller.rail]), ...[route.preHandler ?? []].flat()];
  });
}
