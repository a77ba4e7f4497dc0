import type { WorkerOptions } from 'bullmq';
import { loadConfig } from '../config/app.config';

/**
 * Worker options for `@Processor(...)`. Decorator metadata is fixed when the class loads, before
 * Nest could inject the config, so the lock duration comes from the environment here (validated
 * by the same `loadConfig`). A worker that dies mid-job loses its lock after `JOB_LOCK_MS`; another
 * worker then takes the job over.
 */
export function workerOptions(concurrency: number): Partial<WorkerOptions> {
  const { jobLockMs } = loadConfig();
  return { concurrency, lockDuration: jobLockMs, stalledInterval: jobLockMs, maxStalledCount: 3 };
}
