import { definePeriodicJob, defineQueue } from '../../jobs';

export const EVENTS_QUEUE = defineQueue('events', 1);

/** How often events past their retention are removed. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The events module's background work. */
export const EVENTS_JOBS = {
  /** Periodic: removes events older than the retention (`EVENT_RETENTION_DAYS`). */
  prune: definePeriodicJob(EVENTS_QUEUE, 'events.prune', () => PRUNE_EVERY_MS),
};
