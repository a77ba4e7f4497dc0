import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { KYB_QUEUE, NAIRA_QUEUE } from './queue-names';

export type KybJob =
  | { name: 'submit'; data: { applicationId: string } }
  | { name: 'refresh'; data: { businessId: string } }
  | { name: 'sweep'; data: Record<string, never> };

export type NairaJob = { name: 'provision'; data: { businessId: string } };

/** Enqueue timeout on the request path: a Redis outage must not hold a merchant's request. */
const ENQUEUE_TIMEOUT_MS = 1_000;

/**
 * Producers for every queue. Payloads carry ids only. Job ids are deterministic, so
 * the same work enqueued twice (by the API and the sweep, or by two workers) collapses into one.
 */
@Injectable()
export class Jobs {
  private readonly logger = new Logger(Jobs.name);

  constructor(
    @InjectQueue(KYB_QUEUE) readonly kybQueue: Queue,
    @InjectQueue(NAIRA_QUEUE) readonly nairaQueue: Queue,
  ) {}

  submit(applicationId: string): Promise<void> {
    return this.add(this.kybQueue, 'submit', { applicationId }, { jobId: `submit-${applicationId}` });
  }

  /** One refresh per business per interval bucket. */
  refresh(businessId: string, bucketMs: number): Promise<void> {
    const bucket = Math.floor(Date.now() / bucketMs);
    return this.add(this.kybQueue, 'refresh', { businessId }, { jobId: `refresh-${businessId}-${bucket}`, attempts: 1, removeOnFail: { age: 3_600 } });
  }

  provisionNaira(businessId: string, round: number): Promise<void> {
    return this.add(this.nairaQueue, 'provision', { businessId }, { jobId: `provision-${businessId}-${round}`, attempts: 5 });
  }

  /** Enqueues without ever failing the caller: the database is the source of truth and the sweep re-enqueues. */
  async enqueueQuietly(work: () => Promise<void>, what: string): Promise<void> {
    try {
      await Promise.race([
        work(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('enqueue timed out')), ENQUEUE_TIMEOUT_MS).unref()),
      ]);
    } catch (err) {
      this.logger.warn(`${what} not enqueued now (${(err as Error).message}); the sweep will pick it up`);
    }
  }

  private async add(queue: Queue, name: string, data: object, options: JobsOptions): Promise<void> {
    await queue.add(name, data, options);
  }
}
