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
};
