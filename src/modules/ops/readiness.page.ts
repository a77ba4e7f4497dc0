import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../health';
import type { OpsMetrics } from '../metrics';

export const OPS_READINESS_PATH = '/ready';

/**
 * `/ready` on each operator port: what the public `/health/ready` will not say. 200 while PostgreSQL
 * and Redis answer, 503 naming the one that does not; and each third party this process has
 * called or holds a circuit for, with its circuit (HTTP providers) and its last call's outcome.
 * An open circuit does not make the process unready: the other work goes on, and the alerts say it.
 */
export function installReadiness(fastify: FastifyInstance, readiness: Readiness, metrics: OpsMetrics): void {
  fastify.get(OPS_READINESS_PATH, async (_request, reply) => {
    const { database, redis } = await readiness.check();
    const ready = database && redis;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      database: database ? 'up' : 'down',
      redis: redis ? 'up' : 'down',
      thirdParties: metrics.thirdParties.states(),
    });
  });
}
