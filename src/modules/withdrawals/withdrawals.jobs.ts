import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

export const WITHDRAWALS_QUEUE = defineQueue('withdrawals', 4);

/** The withdrawals module's background work. */
export const WITHDRAWALS_JOBS = {
  /** Send the payout of a withdrawal whose request did not get it to the rail (crash, rail down). */
  sendPayout: defineJob<{ withdrawalId: string }>({
    queue: WITHDRAWALS_QUEUE,
    name: 'withdrawals.send-payout',
    jobId: ({ withdrawalId }) => `withdrawals.send-payout.${withdrawalId}`,
    keepCompletedS: 0,
  }),
  /** Periodic: a payout job for every withdrawal still `pending` after its request's Idempotency-Key lock. */
  resumePayouts: definePeriodicJob(WITHDRAWALS_QUEUE, 'withdrawals.resume-payouts', (config) => config.periodicJobIntervalMs),
};
