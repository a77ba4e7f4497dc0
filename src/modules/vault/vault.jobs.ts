import { definePeriodicJob, defineQueue } from '../../jobs';

export const VAULT_QUEUE = defineQueue('vault', 2);

/** The vault module's background work. */
export const VAULT_JOBS = {
  /** Periodic: read each chain's new blocks for deposits, and settle the pending ones (credit or drop). */
  followChains: definePeriodicJob(VAULT_QUEUE, 'vault.follow-chains', (config) => config.vault.pollIntervalMs),
};
