import Fastify, { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Readiness } from '../health';
import type { OpsMetrics } from '../metrics';
import { installReadiness } from './readiness.page';

/** What a process adds to its operator port besides `/metrics` and `/ready` (the worker: the queue board, the stuck work). */
export type OpsPages = (fastify: FastifyInstance) => Promise<void>;

/**
 * The operator port: a Fastify server of its own, apart from the public one, so what it serves
 * can never be reached through the public port (and no public route or hook runs here). `/metrics`
 * answers the process's metrics in Prometheus's text format, `/ready` its detailed readiness;
 * anything else the process does not add is 404.
 */
export class OpsServer {
  private readonly server: FastifyInstance = Fastify({ logger: false });

  constructor(metrics: OpsMetrics, readiness: Readiness) {
    this.server.get('/metrics', async (_request, reply) => {
      void reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
    installReadiness(this.server, readiness, metrics);
  }

  async listen(host: string, port: number, pages: OpsPages[]): Promise<number> {
    for (const install of pages) await install(this.server);
    await this.server.listen({ host, port });
    return (this.server.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
