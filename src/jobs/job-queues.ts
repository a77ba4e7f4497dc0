import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { JobsOptions, Queue } from 'bullmq';
import { JobDefinition, JobPayload } from './job.definition';

/** BullMQ options of a job: its deterministic id and its retry and retention policy. */
export function jobOptions<P extends JobPayload>(job: JobDefinition<P>, payload: P): JobsOptions {
  return {
    jobId: job.jobId(payload),
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
  constructor(private readonly moduleRef: ModuleRef) {}

  queue(job: Pick<JobDefinition, 'queue'>): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(job.queue.name), { strict: false });
  }

  async add<P extends JobPayload>(job: JobDefinition<P>, payload: P): Promise<void> {
    await this.queue(job).add(job.name, payload, jobOptions(job, payload));
  }

  /**
   * Makes sure the work has a job that will run: adds it when there is none (never enqueued,
   * or Redis lost its data) and retries it when it gave up (a provider may be back).
   */
  async ensure<P extends JobPayload>(job: JobDefinition<P>, payload: P): Promise<void> {
    const existing = await this.queue(job).getJob(job.jobId(payload));
    if (!existing) await this.add(job, payload);
    else if (await existing.isFailed()) await existing.retry('failed');
  }
}
