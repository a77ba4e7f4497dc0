import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobQueues, Outbox } from '../../jobs';
import { OpsMetrics } from './ops-metrics';
import { OpsServer } from './ops-server';

/** Which process the operator port belongs to: its port setting, and what it measures beyond every process's metrics. */
export type OpsProcess = 'api' | 'worker';
const OPS_PROCESS = Symbol('OPS_PROCESS');

/** Opens the operator port once the application is up, and closes it with the application. */
@Injectable()
export class OpsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly server: OpsServer;
  /** Where it listens, once it does (the port is chosen by the system when configured 0). */
  port: number | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(OPS_PROCESS) private readonly process: OpsProcess,
    metrics: OpsMetrics,
  ) {
    this.server = new OpsServer(metrics);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { host, apiPort, workerPort } = this.config.ops;
    this.port = await this.server.listen(host, this.process === 'api' ? apiPort : workerPort);
    new Logger('Ops').log(`operator port (metrics) on ${host}:${this.port}`);
  }

  onApplicationShutdown(): Promise<void> {
    return this.server.close();
  }
}

/**
 * The worker's queues, measured at each scrape: jobs by state, and how long the oldest waiting one
 * has waited; and the outbox, the jobs written with their change and not yet handed to a queue.
 */
@Injectable()
class QueueMetrics {
  constructor(metrics: OpsMetrics, queues: JobQueues, outbox: Outbox) {
    // The gauges of one scrape share one read of the queues, and one of the outbox.
    const read = oncePerScrape(() => queues.stats());
    new Gauge({
      name: 'bullmq_queue_jobs',
      help: 'Jobs in each queue by state (waiting, active, delayed, failed)',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      async collect() {
        for (const { queue, counts } of await read()) for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
      },
    });
    new Gauge({
      name: 'bullmq_queue_oldest_waiting_seconds',
      help: 'How long the oldest waiting job of each queue has waited (0 when none waits)',
      labelNames: ['queue'],
      registers: [metrics.registry],
      async collect() {
        for (const { queue, oldestWaitingAt } of await read())
          this.set({ queue }, oldestWaitingAt === null ? 0 : Math.max(0, (Date.now() - oldestWaitingAt) / 1000));
      },
    });
    const readBacklog = oncePerScrape(() => outbox.backlog());
    new Gauge({
      name: 'outbox_backlog',
      help: 'Jobs written with their change and not yet relayed to their queue',
      registers: [metrics.registry],
      async collect() {
        this.set((await readBacklog()).count);
      },
    });
    new Gauge({
      name: 'outbox_oldest_seconds',
      help: 'How long the oldest job not yet relayed has waited (0 when none waits)',
      registers: [metrics.registry],
      async collect() {
        const { oldestAt } = await readBacklog();
        this.set(oldestAt === null ? 0 : Math.max(0, (Date.now() - oldestAt.getTime()) / 1000));
      },
    });
  }
}

/** `read`, shared by every caller until it settles and the callers of that turn have had it. */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= read().finally(() => setImmediate(() => (pending = undefined))));
}

/** The operator port and the process's metrics (see docs/operations.md, Metrics). */
@Module({})
export class OpsModule {
  static forRoot(process: OpsProcess): DynamicModule {
    return {
      module: OpsModule,
      // Every module may count what it does on the process's registry (the webhook dispatcher does).
      global: true,
      providers: [{ provide: OPS_PROCESS, useValue: process }, OpsMetrics, OpsEndpoint, ...(process === 'worker' ? [QueueMetrics] : [])],
      exports: [OpsMetrics, OpsEndpoint],
    };
  }
}
