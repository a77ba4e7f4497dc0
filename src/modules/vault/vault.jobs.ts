import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

export const VAULT_QUEUE = defineQueue('vault', 8);

/** The vault module's background work. */
export const VAULT_JOBS = {
  /** Periodic: read each chain's new blocks for deposits, and settle the pending ones (credit or drop). */
  followChains: definePeriodicJob(VAULT_QUEUE, 'vault.follow-chains', (config) => config.vault.pollIntervalMs),
  /** Sign a transfer out (once: the signed transaction is its recovery point) and broadcast it. */
  sendTransfer: defineJob<{ vaultTransferId: string }>({
    queue: VAULT_QUEUE,
    name: 'vault.send-transfer',
    jobId: ({ vaultTransferId }) => `vault.send-transfer.${vaultTransferId}`,
    keepCompletedS: 0,
  }),
  /** Periodic: the outcome of broadcast transfers (confirmed, reverted, or broadcast again), and a send job for every stalled one. */
  settleTransfers: definePeriodicJob(VAULT_QUEUE, 'vault.settle-transfers', (config) => config.vault.pollIntervalMs),
};
