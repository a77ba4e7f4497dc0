import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

export const PAYMENT_INTENTS_QUEUE = defineQueue('payment-intents', 4);

/** The payment intents module's background work. */
export const PAYMENT_INTENTS_JOBS = {
  /** Send a returned inbound payment back to its sender through the rail. */
  returnPayment: defineJob<{ paymentId: string }>({
    queue: PAYMENT_INTENTS_QUEUE,
    name: 'payment-intents.return-payment',
    jobId: ({ paymentId }) => `payment-intents.return-payment.${paymentId}`,
  }),
  /** Periodic: unfunded intents past `expiresAt` become `expired`. */
  expire: definePeriodicJob(PAYMENT_INTENTS_QUEUE, 'payment-intents.expire', (config) => config.periodicJobIntervalMs),
  /** Periodic: a live job for every return not yet sent (after Redis lost it, or its retries ran out). */
  resumeReturns: definePeriodicJob(PAYMENT_INTENTS_QUEUE, 'payment-intents.resume-returns', (config) => config.periodicJobIntervalMs),
};
