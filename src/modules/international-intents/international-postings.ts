import { minorFromColumn } from '../../common/money/money';
import type { AccountRef, PlatformAccount, Posting } from '../ledger';
import type { InternationalIntentEntity } from './international-intent.entity';
import { InternationalIntentStatus, PIPELINE_ORDER } from './international-intent.states';

type IntentAmounts = Pick<InternationalIntentEntity, 'id' | 'merchantId' | 'sourceAmount' | 'convertedAmount' | 'fee' | 'sourceCurrency'>;

/**
 * Where the converted amount of an intent is, from the moment its bridge leg starts: on its way
 * to the bridge rail, at the bridge rail, on its way through the payout rail, paid to the
 * recipient. Each is a platform account (credits positive, like the merchant's balances they
 * come from), so at every moment an intent's `sourceAmount` is the sum of what its postings put
 * in the merchant's `reserved` account, in these, and in `fee_revenue`.
 */
const POSITION_AFTER: Partial<Record<InternationalIntentStatus, PlatformAccount>> = {
  bridge_initiated: 'bridge_rail_in_transit',
  bridge_confirmed: 'at_bridge_rail',
  withdrawal_initiated: 'payout_rail_in_transit',
  withdrawal_confirmed: 'paid_abroad',
};

/** A rail that can hold an international payment's money. */
export type HoldingRail = 'bridge_rail' | 'payout_rail';

/** The rail that holds (or last held) the converted amount in each state: the one a late rejection is owed by. */
const RAIL_IN: Partial<Record<InternationalIntentStatus, HoldingRail>> = {
  bridge_initiated: 'bridge_rail',
  bridge_confirmed: 'bridge_rail',
  withdrawal_initiated: 'payout_rail',
  withdrawal_confirmed: 'payout_rail',
};

/** Where the converted amount sits while the intent is in `status`: the merchant's reservation before the bridge leg. */
function positionIn(merchantId: string, status: InternationalIntentStatus): AccountRef {
  const platform = POSITION_AFTER[status];
  return platform ? { platform } : { merchantId, kind: 'reserved' };
}

/** The rail holding the converted amount in `status`; undefined before the bridge leg. */
export function railHolding(status: InternationalIntentStatus): HoldingRail | undefined {
  return RAIL_IN[status];
}

/** The receivable a late rejection leaves on the rail that holds the money, until that rail returns it. */
export function receivableAccount(status: InternationalIntentStatus): AccountRef | undefined {
  const rail = RAIL_IN[status];
  return rail && { platform: rail === 'bridge_rail' ? 'receivable_bridge_rail' : 'receivable_payout_rail' };
}

/** The reservation, at creation: `sourceAmount` leaves `available`; the merchant sees the payment and its fee. */
export function reservationPosting(intent: IntentAmounts): Posting {
  const { merchantId } = intent;
  const source = minorFromColumn(intent.sourceAmount);
  return {
    sourceId: intent.id,
    currency: intent.sourceCurrency,
    type: 'international_reserved',
    lines: [
      { account: { merchantId, kind: 'available' }, amount: -source },
      { account: { merchantId, kind: 'reserved' }, amount: source },
    ],
    balanceTransactions: [
      { merchantId, type: 'international_payment', amount: -minorFromColumn(intent.convertedAmount) },
      { merchantId, type: 'fee', amount: -minorFromColumn(intent.fee) },
    ],
  };
}

/**
 * The money of one move of the pipeline, posted in the transaction that makes it; undefined for a
 * move that moves none (`pending → processing`, a settlement without a fee):
 * - each leg's start and confirmation moves the converted amount on to its next position;
 * - `settled` only recognises the fee: the converted amount is already paid;
 * - `rejected` gives the merchant back its whole `sourceAmount` at once, exactly once (the machine
 *   allows the move once). Once the money has reached a rail, what the merchant gets back that is
 *   not in its reservation any more is advanced by the platform: a receivable on that rail, cleared
 *   when the rail returns the money. The position itself stays where it is until then: the rail
 *   still holds it.
 */
export function transitionPosting(intent: IntentAmounts, from: InternationalIntentStatus, to: InternationalIntentStatus): Posting | undefined {
  const { merchantId } = intent;
  const source = minorFromColumn(intent.sourceAmount);
  const converted = minorFromColumn(intent.convertedAmount);
  const fee = minorFromColumn(intent.fee);
  const base = { sourceId: intent.id, currency: intent.sourceCurrency };
  const reserved: AccountRef = { merchantId, kind: 'reserved' };
  const available: AccountRef = { merchantId, kind: 'available' };
  if (to === 'rejected') {
    const receivable = receivableAccount(from);
    return {
      ...base,
      type: 'international_released',
      lines: receivable
        ? [
            { account: reserved, amount: -fee },
            { account: receivable, amount: -converted },
            { account: available, amount: source },
          ].filter((line) => line.amount !== 0)
        : [
            { account: reserved, amount: -source },
            { account: available, amount: source },
          ],
      balanceTransactions: [{ merchantId, type: 'international_payment_reversal', amount: source }],
    };
  }
  if (to === 'settled') {
    return fee === 0
      ? undefined
      : {
          ...base,
          type: 'international_settled',
          lines: [
            { account: reserved, amount: -fee },
            { account: { platform: 'fee_revenue' }, amount: fee },
          ],
        };
  }
  const next = POSITION_AFTER[to];
  if (!next || PIPELINE_ORDER.indexOf(to) <= PIPELINE_ORDER.indexOf(from)) return undefined;
  return {
    ...base,
    type: `international_${to}`,
    lines: [
      { account: positionIn(merchantId, from), amount: -converted },
      { account: { platform: next }, amount: converted },
    ],
  };
}

/** Where a payment's converted amount can be left at the rails. */
const RAIL_POSITIONS: readonly PlatformAccount[] = Object.values(POSITION_AFTER);
const RECEIVABLES: readonly PlatformAccount[] = ['receivable_bridge_rail', 'receivable_payout_rail'];

/** Every account an international payment's money is booked to at the rails. */
export const RAIL_ACCOUNTS: readonly PlatformAccount[] = [...RAIL_POSITIONS, ...RECEIVABLES];
/** The accounts of money a rail may still hold: on its way, at a rail, or owed back (not paid abroad). */
export const OPEN_AT_RAILS: readonly PlatformAccount[] = RAIL_ACCOUNTS.filter((kind) => kind !== 'paid_abroad');

/** Where the ledger has an intent's converted amount among the rails, and how much; undefined when at none. */
export function railPosition(positions: Partial<Record<PlatformAccount, number>>): { account: PlatformAccount; amount: number } | undefined {
  const account = RAIL_POSITIONS.find((kind) => (positions[kind] ?? 0) > 0);
  return account && { account, amount: positions[account]! };
}

/**
 * What became of money a rail owed: returned by the rail itself or recovered by hand (`amount` in
 * minor units, what actually came back), or lost.
 */
export type ReceivableOutcome = { kind: 'returned' | 'recovered'; amount: number } | { kind: 'written_off' };

const CLEARING_TYPES: Record<ReceivableOutcome['kind'], string> = {
  returned: 'international_returned',
  recovered: 'international_receivable_recovered',
  written_off: 'international_receivable_written_off',
};

export interface ReceivableClearing {
  posting: Posting;
  /** The receivable account cleared, e.g. `receivable_bridge_rail`. */
  receivable: PlatformAccount;
  /** What the platform had advanced (minor units). */
  owed: number;
}

/**
 * An operator clears the open receivable of a rejected intent (`positions`: the platform accounts'
 * sums over the intent's postings); undefined when none is open. Both outcomes close the receivable
 * and the rail's position, since the rail holds nothing of it any more:
 * - `returned` (by the rail, on our request) or `recovered` (by hand): the money came back. Had less
 *   (or more) come back than was advanced, the difference is the platform's (`recovery_differences`,
 *   against `bank_rail` where it arrived), never the merchant's, who was made whole at the rejection.
 * - `written_off`: it will not come back. The position becomes money lost at the rails, the
 *   receivable an expense.
 */
export function receivableClearing(
  intent: Pick<InternationalIntentEntity, 'id' | 'sourceCurrency'>,
  positions: Partial<Record<PlatformAccount, number>>,
  outcome: ReceivableOutcome,
  note?: string,
): ReceivableClearing | undefined {
  const receivable = RECEIVABLES.find((kind) => (positions[kind] ?? 0) < 0);
  if (!receivable) return undefined;
  const owed = -positions[receivable]!;
  const position = railPosition(positions)?.account;
  if (!position) throw new Error(`ledger: ${intent.id} owes ${owed} on ${receivable} but holds no position at a rail`);
  const closed = [
    { account: { platform: receivable }, amount: owed },
    { account: { platform: position }, amount: -owed },
  ];
  const difference = outcome.kind === 'written_off' ? 0 : owed - outcome.amount;
  const lines =
    outcome.kind !== 'written_off'
      ? [
          ...closed,
          { account: { platform: 'bank_rail' as const }, amount: difference },
          { account: { platform: 'recovery_differences' as const }, amount: -difference },
        ]
      : [...closed, { account: { platform: 'lost_at_rails' as const }, amount: owed }, { account: { platform: 'written_off' as const }, amount: -owed }];
  return {
    receivable,
    owed,
    posting: {
      sourceId: intent.id,
      currency: intent.sourceCurrency,
      type: CLEARING_TYPES[outcome.kind],
      lines: lines.filter((line) => line.amount !== 0),
      ...(note === undefined ? {} : { note }),
    },
  };
}

/**
 * The payout rail gave a rejected intent's money back to the bridge side (the payout cancelled,
 * failed or recalled): the position and what is owed move from the payout rail to the bridge rail,
 * which is asked next. Undefined when the payout rail owes nothing (any more).
 */
export function payoutReturnPosting(
  intent: Pick<InternationalIntentEntity, 'id' | 'sourceCurrency'>,
  positions: Partial<Record<PlatformAccount, number>>,
): Posting | undefined {
  const owed = -(positions.receivable_payout_rail ?? 0);
  if (owed <= 0) return undefined;
  const position = (['payout_rail_in_transit', 'paid_abroad'] as const).find((kind) => (positions[kind] ?? 0) > 0);
  if (!position) throw new Error(`ledger: ${intent.id} owes ${owed} on receivable_payout_rail but holds no position at the payout rail`);
  return {
    sourceId: intent.id,
    currency: intent.sourceCurrency,
    type: 'international_payout_returned',
    lines: [
      { account: { platform: position }, amount: -owed },
      { account: { platform: 'at_bridge_rail' }, amount: owed },
      { account: { platform: 'receivable_payout_rail' }, amount: owed },
      { account: { platform: 'receivable_bridge_rail' }, amount: -owed },
    ],
  };
}

/** The rail a rejected intent's money is to be got back from first, if any is owed. */
export function railToRecoverFrom(positions: Partial<Record<PlatformAccount, number>>): HoldingRail | undefined {
  if ((positions.receivable_payout_rail ?? 0) < 0) return 'payout_rail';
  if ((positions.receivable_bridge_rail ?? 0) < 0) return 'bridge_rail';
  return undefined;
}
