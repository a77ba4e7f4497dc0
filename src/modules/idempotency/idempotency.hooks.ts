import { INestApplication, Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyKeyInvalidError, IdempotencyKeyRequiredError } from './idempotency.errors';
import { requestFingerprint } from './idempotency.fingerprint';
import { idempotencyKeyHeader, parseIdempotencyKey } from './idempotency.key';
import { newId } from '../../common/ids/ids';
import { IdempotencyClaim, IdempotencyService } from './idempotency.service';
import { answerMessageOf } from '../../common/http/answer';
import { IDEMPOTENCY_ROUTE, IdempotencyRoute } from './idempotent.decorator';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds, while it holds one. */
    idempotency: IdempotencyClaim | null;
    /**
     * What else makes this request what it is, for a route whose body is not all in `body` (the
     * KYB submission's documents, decoded out of it): part of the fingerprint.
     */
    idempotencyExtra: unknown;
  }
  interface FastifyContextConfig {
    /** Set by `@Idempotent` (Nest's RouteConfig). */
    [IDEMPOTENCY_ROUTE]?: IdempotencyRoute;
  }
}

/**
 * Refusals the operation itself answered (an unknown or not-owned id, a state or balance that
 * forbids it): stored and replayed. Everything else that fails (validation, authentication,
 * limits, a 5xx) stored nothing, so the key is given back and a retry runs afresh.
 */
const STORED_REFUSALS = new Set([403, 404, 409, 410, 422]);

type Hook<H> = H | H[] | undefined;
const hooks = <H>(existing: Hook<H>): H[] => (existing === undefined ? [] : ([existing].flat() as H[]));

/**
 * Idempotency-Keys on the routes that declare `@Idempotent`, as two hooks of those routes alone
 * around Nest's handler (no other request pays for them). `preHandler` runs after authentication
 * and rate limiting (onRequest) and after the body is parsed: it refuses a missing or malformed
 * key, claims it, or answers a replay, a reuse (409) or an identical request in progress (423)
 * without running the handler. `onSend` sees every answer of the route, the error filter's
 * included: it sends the stored bytes of a committed answer, stores a refusal, or gives the key
 * back. Installed before Nest registers its routes.
 */
export function installIdempotency(app: INestApplication, fastify: FastifyInstance): void {
  const service = app.get(IdempotencyService);
  const logger = new Logger('Idempotency');
  fastify.decorateRequest('idempotency', null);
  fastify.decorateRequest('idempotencyExtra', undefined);

  const claimKey = (route: IdempotencyRoute, answer: { status: number; message: string }) => async (request: FastifyRequest, reply: FastifyReply) => {
    // A merchant's key, or a dashboard user's session: keys belong to the merchant either way.
    const merchantId = request.merchant?.merchantId ?? request.dashboardUser?.merchantId;
    if (!merchantId) return;
    const header = idempotencyKeyHeader(request.raw.rawHeaders);
    if (header === undefined) {
      if (route.mode === 'required') throw new IdempotencyKeyRequiredError();
      return;
    }
    const key = header === null ? undefined : parseIdempotencyKey(header);
    if (key === undefined) throw new IdempotencyKeyInvalidError();
    const body = request.idempotencyExtra === undefined ? request.body : { body: request.body, extra: request.idempotencyExtra };
    const fingerprint = requestFingerprint(request.method, request.routeOptions.url ?? '', request.params, body);
    const outcome = await service.begin(merchantId, key, fingerprint, answer, route.creates ? newId(route.creates) : null);
    if (outcome.kind === 'replay') {
      return reply.code(outcome.answer.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(outcome.answer.body);
    }
    request.idempotency = outcome.claim;
  };

  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    // The bytes every replay will send.
    if (claim.answer) return claim.answer.body;
    // A route that declares @Idempotent must store its success with its last writes.
    if (reply.statusCode < 300) logger.error(`${request.routeOptions.url ?? request.url} succeeded without storing its answer; the key was given back`);
    try {
      if (STORED_REFUSALS.has(reply.statusCode) && typeof payload === 'string') await service.storeRefusal(claim, { status: reply.statusCode, body: payload });
      else await service.release(claim, reply.statusCode >= 500);
    } catch (err) {
      // The answer goes out regardless; a key left claimed is taken over once its lock runs out.
      logger.warn(`idempotency key of request ${request.id} not settled: ${(err as Error).message}`);
    }
    return payload;
  };

  fastify.addHook('onRoute', (route) => {
    const spec = route.config?.[IDEMPOTENCY_ROUTE];
    if (!spec) return;
    // The stored answer is the route's envelope: a route without its message could not build it.
    const message = answerMessageOf(route.config);
    if (message === undefined) throw new Error(`${[route.method].flat().join(',')} ${route.url} is @Idempotent but declares no @Answer message`);
    route.preHandler = [...hooks(route.preHandler), claimKey(spec, { status: spec.successStatus, message })];
    route.onSend = [...hooks(route.onSend), settle];
  });
}
