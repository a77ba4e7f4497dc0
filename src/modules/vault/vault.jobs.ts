import { defineJob, definePeriodicJob, defineQueue } from '../../jobs';

/** Transfers out, one job each. */
export const VAULT_QUEUE = defineQueue('vault', 8);
/**
 * The chains' followers, on a queue of their own: however many transfers are being sent (each
 * waiting on an RPC that may hang), deposits are still read and credited on time.
 */
export const VAULT_CHAINS_QUEUE = defineQueue('vault-chains', 2);

/** The vault module's background work. */
export const VAULT_JOBS = {
  /** Periodic: read each chain's new blocks for deposits, and settle the pending ones (credit or drop). */
  followChains: definePeriodicJob(VAULT_CHAINS_QUEUE, 'vault.follow-chains', (config) => config.vault.pollIntervalMs),
  /** Sign a transfer out (once: the signed transaction is its recovery point) and broadcast it. */
  sendTransfer: defineJob<{ vaultTransferId: string }>({
    queue: VAULT_QUEUE,
    name: 'vault.send-transfer',
    jobId: ({ vaultTransferId }) => `vault.send-transfer.${vaultTransferId}`,
    keepCompletedS: 0,
  }),
  /** Periodic: the outcome of broadcast transfers (confirmed, reverted, or broadcast again), and a send job for every stalled one. */
  settleTransfers: definePeriodicJob(VAULT_CHAINS_QUEUE, 'vault.settle-transfers', (config) => config.vault.pollIntervalMs),
};
