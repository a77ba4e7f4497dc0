import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyRailSignature } from '../bank-rail';
import { MerchantPrincipal } from './api-keys.service';
import { InvalidSignatureError } from './auth.errors';
import { MerchantAuthenticator } from './merchant-authenticator.service';
import { rateLimitHeaders } from './rate-limit-state';
import { RateLimitsService } from './rate-limits.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant whose API key authenticated the request; set before the body is read. */
    merchant: MerchantPrincipal | null;
    /** The exact bytes of a rail callback's body, which its signature covers. */
    rawBody?: string;
  }
}

/** Every route under this prefix is a merchant route: authenticated and rate limited. */
export const MERCHANT_API_PREFIX = '/api/merchant/';

/** How the routes that are not merchant routes are called. */
export interface CallerRoutes {
  /** Open to anyone, limited per client IP: pages and documents (matched on the route's URL). */
  isPublic(routeUrl: string): boolean;
  /** Rail callbacks by route URL, with the secret that rail signs with. */
  railSecrets: ReadonlyMap<string, string>;
}

/**
 * Who may call each route, decided before its handler:
 * - merchant routes are authenticated in Fastify's first hook, from the headers alone: no body
 *   byte is read, parsed or validated for a request without a valid key, and nothing else runs;
 * - public routes count against their client IP's limit, also before anything else runs;
 * - a rail callback's signature covers its exact bytes, so it is checked once they are parsed,
 *   before the handler; a callback failing it counts as a failed authentication of its IP (the
 *   same budget as wrong API keys), and a valid one is never limited.
 * Unknown routes are left to the 404 handler, which does no work either.
 */
export function installMerchantAuthentication(app: INestApplication, fastify: FastifyInstance, routes: CallerRoutes): void {
  const authenticator = app.get(MerchantAuthenticator);
  const limits = app.get(RateLimitsService);
  fastify.decorateRequest('merchant', null);
  fastify.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined) return;
    if (url.startsWith(MERCHANT_API_PREFIX)) {
      const { principal, limit } = await authenticator.authenticate(request);
      request.merchant = principal;
      void reply.headers(rateLimitHeaders(limit));
    } else if (routes.isPublic(url)) {
      void reply.headers(rateLimitHeaders(await limits.consumeForPublicRoute(request.ip)));
    }
  });

  const verifySignature = (secret: string) => async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers['x-rail-signature'];
    if (typeof header === 'string' && verifyRailSignature(secret, header, request.rawBody ?? '')) return;
    throw new InvalidSignatureError(rateLimitHeaders(await limits.recordAuthFailure(request.ip)));
  };
  fastify.addHook('onRoute', (route) => {
    const secret = routes.railSecrets.get(route.url);
    if (secret !== undefined) route.preHandler = [verifySignature(secret), ...[route.preHandler ?? []].flat()];
  });
}
