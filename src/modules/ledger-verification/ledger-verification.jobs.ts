import { definePeriodicJob, defineQueue } from '../../jobs';

export const LEDGER_VERIFICATION_QUEUE = defineQueue('ledger-verification', 1);

export const LEDGER_VERIFICATION_JOBS = {
  /** Periodic: `ledger:verify`, run by the worker and recorded for the operator port's gauges. */
  verify: definePeriodicJob(LEDGER_VERIFICATION_QUEUE, 'ledger-verification.verify', (config) => config.ops.ledgerVerifyIntervalMs),
};
