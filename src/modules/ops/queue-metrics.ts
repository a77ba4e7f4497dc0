import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { JobQueues, Outbox } from '../../jobs';
import { oncePerScrape, OpsMetrics } from '../metrics';

/**
 * The worker's queues, measured at each scrape: jobs by state, and how long the oldest waiting one
 * has waited; and the outbox, the jobs written with their change and not yet handed to a queue.
 */
@Injectable()
export class QueueMetrics {
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
        for (const { queue, oldestWaitingAt } of await read()) this.set({ queue }, ageSeconds(oldestWaitingAt));
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
        this.set(ageSeconds((await readBacklog()).oldestAt?.getTime() ?? null));
      },
    });
  }
}

/** Seconds since `at` (epoch ms), 0 when there is nothing to age. */
export function ageSeconds(at: number | null): number {
  return at === null ? 0 : Math.max(0, (Date.now() - at) / 1000);
}
