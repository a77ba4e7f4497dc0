import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';
import type { HoldingRail } from './international-postings';

/** Legs are mostly waiting on the rails: many per worker at once. */
export const INTERNATIONAL_QUEUE = defineQueue('international', 32);

/** The settlement pipeline's background work. */
export const INTERNATIONAL_JOBS = {
  /**
   * Take an intent as far as it can go now, from `from` (the status it was enqueued for: each
   * status gets its own job, so a move that lands while an earlier job is finishing is not lost
   * to that job's id).
   */
  advance: defineJob<{ intentId: string; from: string }>({
    queue: INTERNATIONAL_QUEUE,
    name: 'international.advance',
    jobId: ({ intentId, from }) => `international.advance.${intentId}.${from}`,
    keepCompletedS: 0,
  }),
  /**
   * Get back from the rails what a rejected intent had sent them, from the rail named (the payout
   * rail first, to the bridge side; then the bridge rail, in NGN). A return still pending fails the
   * attempt, so the job asks again with back-off until the rail's answer or callback is in: about
   * an hour of attempts before it is left to the operator (the receivable stays open and listed).
   */
  recover: defineJob<{ intentId: string; rail: HoldingRail }>({
    queue: INTERNATIONAL_QUEUE,
    name: 'international.recover',
    jobId: ({ intentId, rail }) => `international.recover.${intentId}.${rail}`,
    attempts: 12,
    keepCompletedS: 0,
  }),
  /** Periodic: an `advance` for every intent that has not moved for a job lock: its job was lost, or a rail's callback. */
  resume: definePeriodicJob(INTERNATIONAL_QUEUE, 'international.resume', (config) => config.periodicJobIntervalMs),
};
