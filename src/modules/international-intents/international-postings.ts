import { minorFromColumn } from '../../common/money/money';
import type { Posting } from '../ledger';
import type { InternationalIntentEntity } from './international-intent.entity';

type IntentAmounts = Pick<InternationalIntentEntity, 'id' | 'merchantId' | 'sourceAmount' | 'convertedAmount' | 'fee' | 'sourceCurrency'>;

/**
 * The three postings of an international payment intent, in NGN. Until the end the whole
 * `sourceAmount` sits in the merchant's `reserved` account:
 * - `reserved` (creation): it leaves `available`; the merchant sees the payment and its fee;
 * - `settled`: the reservation is consumed, the converted amount to the bridge rail, the fee recognised as revenue;
 * - `released` (rejection, at any stage before `settled`): it goes back to `available`, once.
 */
export function internationalPosting(intent: IntentAmounts, kind: 'reserved' | 'settled' | 'released'): Posting {
  const merchantId = intent.merchantId;
  const source = minorFromColumn(intent.sourceAmount);
  const converted = minorFromColumn(intent.convertedAmount);
  const fee = minorFromColumn(intent.fee);
  const reserved = { merchantId, kind: 'reserved' as const };
  const available = { merchantId, kind: 'available' as const };
  const base = { sourceId: intent.id, currency: intent.sourceCurrency };
  switch (kind) {
    case 'reserved':
      return {
        ...base,
        type: 'international_reserved',
        lines: [
          { account: available, amount: -source },
          { account: reserved, amount: source },
        ],
        balanceTransactions: [
          { merchantId, type: 'international_payment', amount: -converted },
          { merchantId, type: 'fee', amount: -fee },
        ],
      };
    case 'settled':
      return {
        ...base,
        type: 'international_settled',
        lines: [
          { account: reserved, amount: -source },
          { account: { platform: 'bridge_rail' }, amount: converted },
          ...(fee === 0 ? [] : [{ account: { platform: 'fee_revenue' as const }, amount: fee }]),
        ],
      };
    case 'released':
      return {
        ...base,
        type: 'international_released',
        lines: [
          { account: reserved, amount: -source },
          { account: available, amount: source },
        ],
        balanceTransactions: [{ merchantId, type: 'international_payment_reversal', amount: source }],
      };
  }
}
