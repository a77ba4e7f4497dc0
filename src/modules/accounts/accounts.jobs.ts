import { defineJob, defineQueue } from '../../jobs';

export const ACCOUNTS_QUEUE = defineQueue('accounts', 4);

/** The accounts module's background work. */
export const ACCOUNTS_JOBS = {
  /** Mail an e-mailed link (verification, reset, invitation); the token is drawn when it is sent. */
  sendLink: defineJob<{ tokenId: string }>({
    queue: ACCOUNTS_QUEUE,
    name: 'accounts.send-link',
    jobId: ({ tokenId }) => `accounts.send-link.${tokenId}`,
  }),
};
