import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WithRouteConfig } from './route-config';

/** The key of a route's success message in its route config. */
export const ANSWER = 'answer';

/**
 * The success message of a route: its handler returns the result alone, and the answer is
 * `{ message, response: result }` (the envelope every merchant answer has). Services never build
 * it; an idempotent route's stored answer is built from the same message.
 */
export const Answer = (message: string): MethodDecorator => WithRouteConfig({ [ANSWER]: message });

/** The message a route declared with `Answer` (read from its route config), if any. */
export function answerMessageOf(config: unknown): string | undefined {
  const message = (config as Record<string, unknown> | undefined)?.[ANSWER];
  return typeof message === 'string' ? message : undefined;
}

/** The envelope of a success answer, for a route that declared its message. */
export function envelopeOf(message: string, response: unknown): { message: string; response: unknown } {
  return { message, response };
}

/**
 * Wraps the result of every handler that declared its message (`Answer`) in the envelope, as a
 * Fastify `preSerialization` hook of those routes' successes only: before the route's serializer (a compiled
 * one for the hot routes), at the cost of one object per answer (a Nest interceptor would add an
 * observable chain to every request).
 */
export function installAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const message = answerMessageOf(route.config);
    if (message === undefined) return;
    // Only a success: errors carry the error body, which the global filter sends as it is.
    const wrap = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, value: unknown) => void) =>
      done(null, reply.statusCode < 400 ? envelopeOf(message, payload) : payload);
    route.preSerialization = [...[route.preSerialization ?? []].flat(), wrap] as typeof route.preSerialization;
  });
}
