import type { AppConfig } from '../config/app.config';

/** Job payloads carry ids only: never documents, secrets or anything a log line must not show. */
export type JobPayload = Record<string, string>;

export interface QueueDefinition {
  name: string;
  /** Jobs of this queue one worker process runs at once. */
  concurrency: number;
}

export interface JobDefinition<P extends JobPayload = JobPayload> {
  queue: QueueDefinition;
  /** `<module>.<verb>`, unique across the application. */
  name: string;
  /** Deterministic, so the same work enqueued twice collapses into one job while it exists. BullMQ refuses `:` in ids. */
  jobId: (payload: P) => string;
  attempts: number;
  /** Base of the exponential backoff between attempts. */
  backoffMs: number;
  /** Keep finished jobs (seconds) for inspection; 0 removes them at once, so the id is free again. */
  keepCompletedS: number;
  keepFailedS: number;
  /** Periodic jobs: every how many ms, from the configuration. Their payload is empty. */
  every?: (config: AppConfig) => number;
}

export function defineQueue(name: string, concurrency: number): QueueDefinition {
  return { name, concurrency };
}

const DEFAULTS = { attempts: 8, backoffMs: 1_000, keepCompletedS: 3_600, keepFailedS: 7 * 24 * 3_600 };

export function defineJob<P extends JobPayload>(
  definition: Pick<JobDefinition<P>, 'queue' | 'name' | 'jobId'> & Partial<Omit<JobDefinition<P>, 'queue' | 'name' | 'jobId'>>,
): JobDefinition<P> {
  return { ...DEFAULTS, ...definition };
}

/** A periodic job: one run per interval across all workers, never retried (the next run is). */
export function definePeriodicJob(queue: QueueDefinition, name: string, every: (config: AppConfig) => number): JobDefinition<Record<string, never>> {
  return defineJob({ queue, name, jobId: () => name, every, attempts: 1, keepCompletedS: 0, keepFailedS: 24 * 3_600 });
}

/** Any job, as registries and lists hold them: the payload type matters only where one is built. */
export type AnyJobDefinition = JobDefinition<never>;

/** What a handler learns of its job besides the payload. */
export interface JobContext {
  /** 1 for the first run. */
  attempt: number;
  /** True when a failure now is final: no retry follows. */
  finalAttempt: boolean;
}
