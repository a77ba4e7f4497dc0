import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

export const EVENTS_QUEUE = defineQueue('events', 2);

/** How often events past their retention are removed. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The events module's background work (deliveries themselves are the dispatcher's, not jobs). */
export const EVENTS_JOBS = {
  /** Periodic: removes events older than the retention (`EVENT_RETENTION_DAYS`), their deliveries with them. */
  prune: definePeriodicJob(EVENTS_QUEUE, 'events.prune', () => PRUNE_EVERY_MS),
  /** Tells the merchant's owners by e-mail that the service disabled an endpoint that kept failing. */
  mailEndpointDisabled: defineJob<{ endpointId: string }>({
    queue: EVENTS_QUEUE,
    name: 'events.mail-endpoint-disabled',
    jobId: ({ endpointId }) => `events.mail-endpoint-disabled.${endpointId}`,
    keepCompletedS: 0,
  }),
};
