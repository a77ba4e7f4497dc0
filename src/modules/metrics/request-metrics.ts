import type { FastifyInstance } from 'fastify';
import type { OpsMetrics } from './ops-metrics';

/**
 * Every answer of the public port into the duration histogram, labelled by the route's template
 * (`/api/merchant/pobo/users/:poboUserId`), never the URL, which may hold ids or tokens; a URL
 * no route matched is `unmatched`.
 */
export function installRequestMetrics(fastify: FastifyInstance, metrics: OpsMetrics): void {
  if (!metrics.enabled) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.requestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
