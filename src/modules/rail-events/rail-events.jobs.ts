import { definePeriodicJob, defineQueue } from '../../jobs';

export const RAIL_EVENTS_QUEUE = defineQueue('rail-events', 1);

export const RAIL_EVENTS_JOBS = {
  /** Periodic: read the rail's event list from where we left off, so a lost callback still lands. */
  reconcile: definePeriodicJob(RAIL_EVENTS_QUEUE, 'rail-events.reconcile', (config) => config.periodicJobIntervalMs),
};
