import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

export const NAIRA_QUEUE = defineQueue('naira', 2);

/** The Naira module's background work. */
export const NAIRA_JOBS = {
  /** One provisioning round of a business's Naira account; `round` makes each retry round a new job. */
  provision: defineJob<{ businessId: string; round: string }>({
    queue: NAIRA_QUEUE,
    name: 'naira.provision',
    jobId: ({ businessId, round }) => `naira.provision.${businessId}.${round}`,
    attempts: 5,
  }),
  /** Periodic: new rounds for failed provisioning past its wait, and live jobs for pending rounds. */
  resumeProvisioning: definePeriodicJob(NAIRA_QUEUE, 'naira.resume-provisioning', (config) => config.periodicJobIntervalMs),
  /** Send a returned collection (a transfer into a closed account) back to its sender through the rail. */
  returnCollection: defineJob<{ collectionId: string }>({
    queue: NAIRA_QUEUE,
    name: 'naira.return-collection',
    jobId: ({ collectionId }) => `naira.return-collection.${collectionId}`,
  }),
  /** Periodic: a live job for every collection return not yet sent (after Redis lost it, or its retries ran out). */
  resumeCollectionReturns: definePeriodicJob(NAIRA_QUEUE, 'naira.resume-collection-returns', (config) => config.periodicJobIntervalMs),
};
