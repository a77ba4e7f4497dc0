import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

export const KYB_QUEUE = defineQueue('kyb', 4);

/** The KYB module's background work. */
export const KYB_JOBS = {
  /** Hand a stored application to the verification provider (documents first, then the application). */
  forward: defineJob<{ applicationId: string }>({
    queue: KYB_QUEUE,
    name: 'kyb.forward-application',
    jobId: ({ applicationId }) => `kyb.forward-application.${applicationId}`,
  }),
  /** Ask the provider about one business whose application it has; removed when done, so the next interval can ask again. */
  refresh: defineJob<{ businessId: string }>({
    queue: KYB_QUEUE,
    name: 'kyb.refresh',
    jobId: ({ businessId }) => `kyb.refresh.${businessId}`,
    attempts: 1,
    keepCompletedS: 0,
    keepFailedS: 0,
  }),
  /** Periodic: a refresh job for every business the provider is reviewing. */
  refreshProcessing: definePeriodicJob(KYB_QUEUE, 'kyb.refresh-processing', (config) => config.periodicJobIntervalMs),
  /** Periodic: a live forwarding job for every application not yet with the provider (after Redis lost its data, or retries ran out). */
  resumeForwarding: definePeriodicJob(KYB_QUEUE, 'kyb.resume-forwarding', (config) => config.periodicJobIntervalMs),
  /** Periodic: delete document bytes once the provider has them and the retention period has passed. */
  purgeDocuments: definePeriodicJob(KYB_QUEUE, 'kyb.purge-documents', (config) => config.periodicJobIntervalMs),
};
