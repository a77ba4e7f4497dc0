import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MerchantPrincipal } from './api-keys.service';
import { MerchantAuthenticator } from './merchant-authenticator.service';
import { rateLimitHeaders } from './rate-limit-state';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant whose API key authenticated the request; set before the body is read. */
    merchant: MerchantPrincipal | null;
  }
}

/** Every route under this prefix is a merchant route: authenticated and rate limited. */
export const MERCHANT_API_PREFIX = '/api/merchant/';

/**
 * Authenticates merchant routes in Fastify's first hook, from the headers alone: no body byte is
 * read, parsed or validated for a request without a valid key, and nothing else runs for it.
 * Unknown routes are left to the 404 handler, which does no work either.
 */
export function installMerchantAuthentication(app: INestApplication, fastify: FastifyInstance): void {
  const authenticator = app.get(MerchantAuthenticator);
  fastify.decorateRequest('merchant', null);
  fastify.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (!request.routeOptions.url?.startsWith(MERCHANT_API_PREFIX)) return;
    const { principal, limit } = await authenticator.authenticate(request);
    request.merchant = principal;
    void reply.headers(rateLimitHeaders(limit));
  });
}
