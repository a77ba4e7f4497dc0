import { definePeriodicJob, defineQueue } from '../../jobs';

export const IDEMPOTENCY_QUEUE = defineQueue('idempotency', 1);

export const IDEMPOTENCY_JOBS = {
  /** Periodic: delete keys past their retention (24 hours by default). */
  reap: definePeriodicJob(IDEMPOTENCY_QUEUE, 'idempotency.reap', (config) => config.periodicJobIntervalMs),
};
