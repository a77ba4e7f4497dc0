import type { Posting } from './ledger.service';

/**
 * The two postings of a transfer that goes back to its sender (a payment that does not match its
 * intent, a collection into a closed account): on receipt the money is owed back (`held`: from the
 * bank rail to `returns_payable`), once the rail has returned it that debt is gone (`sent`). The
 * `type`s name which kind of transfer it was.
 */
export const transferReturn = {
  held: (type: string, sourceId: string, currency: string, amount: number): Posting => ({
    type,
    sourceId,
    currency,
    lines: [
      { account: { platform: 'bank_rail' }, amount: -amount },
      { account: { platform: 'returns_payable' }, amount },
    ],
  }),
  sent: (type: string, sourceId: string, currency: string, amount: number): Posting => ({
    type,
    sourceId,
    currency,
    lines: [
      { account: { platform: 'returns_payable' }, amount: -amount },
      { account: { platform: 'bank_rail' }, amount },
    ],
  }),
};
