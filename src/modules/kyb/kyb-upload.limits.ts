import type { FastifyInstance } from 'fastify';
import { AppError } from '../../common/errors/app-error';
import { POBO_USERS_PATH } from '../pobo-businesses/pobo-businesses.service';
import { KYB_BODY_LIMIT, LARGE_UPLOAD_BYTES } from './kyb.constants';
import { UploadCapacityError } from './kyb.errors';

const ONBOARDING_ROUTE = `${POBO_USERS_PATH}/:poboUserId/onboarding`;

/**
 * Route-level limits of the KYB submission, installed before Nest registers routes:
 * - its own body limit, checked by Fastify against Content-Length before the body is read;
 * - load shedding: at most `maxConcurrent` large bodies are read at once per process, others get
 *   503 with Retry-After straight away, so memory stays bounded under a burst of uploads.
 */
export function applyKybUploadLimits(fastify: FastifyInstance, maxConcurrent: number): void {
  let inFlight = 0;
  fastify.addHook('onRoute', (route) => {
    if (route.url !== ONBOARDING_ROUTE || route.method !== 'POST') return;
    route.bodyLimit = KYB_BODY_LIMIT;
    const gate = (request: { headers: Record<string, unknown>; raw: unknown }, reply: { raw: NodeJS.EventEmitter }, done: (err?: Error) => void) => {
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > KYB_BODY_LIMIT) return done(new AppError('payload_too_large', 'Request body is too large', [], { Connection: 'close' }));
      if (length <= LARGE_UPLOAD_BYTES) return done();
      if (inFlight >= maxConcurrent) return done(new UploadCapacityError());
      inFlight++;
      reply.raw.once('close', () => inFlight--);
      done();
    };
    route.onRequest = [gate, ...(route.onRequest ? [route.onRequest].flat() : [])];
  });
}
