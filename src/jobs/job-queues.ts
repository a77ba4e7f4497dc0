import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { JobsOptions, Queue } from 'bullmq';
import { JobDefinition, JobPayload } from './job.definition';

/** BullMQ options of a job: its retry and retention policy (the id is given per job, or by a scheduler). */
export function jobOptions(job: Pick<JobDefinition, 'attempts' | 'backoffMs' | 'keepCompletedS' | 'keepFailedS'>): JobsOptions {
  return {
    attempts: job.attempts,
    backoff: { type: 'exponential', delay: job.backoffMs },
    removeOnComplete: job.keepCompletedS === 0 ? true : { age: job.keepCompletedS },
    removeOnFail: job.keepFailedS === 0 ? true : { age: job.keepFailedS },
  };
}

/**
 * Direct access to the queues, for the worker side only: the outbox relay, and periodic jobs that
 * fan work out or make sure work recorded in PostgreSQL has a live job. Request paths write to
 * the outbox instead.
 */
@Injectable()
export class JobQueues {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
  ) {}

  /**
   * Every registered queue connected. A process that closes right after it started (a one-shot
   * command) waits for this first: a queue still connecting when its connection is closed fails
   * commands it had queued.
   */
  async ready(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.waitUntilReady()));
  }

  /** Jobs waiting for a free worker slot, over every queue: above zero, the workers are behind. */
  async waiting(): Promise<number> {
    const counts = await Promise.all(this.all().map((queue) => queue.getWaitingCount()));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Each queue's jobs by state, and when its oldest waiting job was added (null: none waits). */
  async stats(): Promise<{ queue: string; counts: Record<'waiting' | 'active' | 'delayed' | 'failed', number>; oldestWaitingAt: number | null }[]> {
    return Promise.all(
      this.all().map(async (queue) => {
        const [counts, [oldest]] = await Promise.all([queue.getJobCounts('waiting', 'active', 'delayed', 'failed'), queue.getJobs(['waiting'], 0, 0, true)]);
        return {
          queue: queue.name,
          counts: { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 },
          oldestWaitingAt: oldest?.timestamp ?? null,
        };
      }),
    );
  }

  /** Every queue the modules registered (the operator port's board shows them). */
  all(): Queue[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is Queue => instance instanceof Queue);
  }

  queue(job: Pick<JobDefinition, 'queue'>): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(job.queue.name), { strict: false });
  }

  /** `jobId`: the id the producer recorded (the outbox's), else the job's own for this payload. */
  async add<P extends JobPayload>(job: JobDefinition<P>, payload: P, jobId = job.jobId(payload)): Promise<void> {
    await this.queue(job).add(job.name, payload, { ...jobOptions(job), jobId });
  }

  /**
   * Makes sure the work has a job that will run: adds it when there is none (never enqueued,
   * or Redis lost its data) and retries it when it gave up (a provider may be back), at once or
   * once it gave up at least `retryFailedAfterMs` ago (work that spent long attempts asks again
   * rarely).
   */
  async ensure<P extends JobPayload>(job: JobDefinition<P>, payload: P, { retryFailedAfterMs = 0 } = {}): Promise<void> {
    const existing = await this.queue(job).getJob(job.jobId(payload));
    if (!existing) await this.add(job, payload);
    else if ((await existing.isFailed()) && Date.now() - (existing.finishedOn ?? 0) >= retryFailedAfterMs) await existing.retry('failed');
  }
}
