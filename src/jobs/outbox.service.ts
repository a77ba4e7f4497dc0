import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { currentTraceParent } from '../common/tracing/tracing';
import { JobDefinition, JobPayload } from './job.definition';
import { OutboxRepository } from './outbox.repository';

/**
 * The one way to start background work after a change: `enqueue` in the transaction that makes
 * the change. The job exists exactly when the change committed; the relay (worker) hands it to
 * BullMQ, so neither a Redis outage at commit nor a crash between commit and enqueue loses it.
 */
@Injectable()
export class Outbox {
  constructor(private readonly repository: OutboxRepository) {}

  /** Jobs written and not relayed yet, and when the oldest was: the worker's metrics. */
  backlog(): Promise<{ count: number; oldestAt: Date | null }> {
    return this.repository.backlog();
  }

  async enqueue<P extends JobPayload>(manager: EntityManager, job: JobDefinition<P>, payload: P): Promise<void> {
    // The job's spans continue the request's trace (the relay adds it to its queue in that context).
    await this.repository.insert(manager, { jobName: job.name, jobId: job.jobId(payload), payload, traceParent: currentTraceParent() });
  }
}
