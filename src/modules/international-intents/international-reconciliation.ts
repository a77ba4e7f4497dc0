import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import type { BridgeTransferStatus, ForeignPayoutStatus, RailAmount, RailLeg } from '../cross-border-rails';
import type { PlatformAccount } from '../ledger';
import type { InternationalIntentEntity } from './international-intent.entity';
import { HoldingRail, railPosition } from './international-postings';

type IntentSent = Pick<InternationalIntentEntity, 'id' | 'sourceCurrency' | 'convertedAmount' | 'currency' | 'amount'>;

/** Where the ledger has an intent's converted amount: one of its positions at the rails, or `none` (with the merchant, or back). */
type LedgerPlace = PlatformAccount | 'none';

/**
 * What each rail's leg of an intent may be while the ledger has its money at a place (null: no
 * leg). The bridge rail's compliance review (`in_review`) holds a transfer before any money
 * moves, so it goes with money still reserved; a payout that failed holds its money at the payout
 * rail until it is returned.
 */
const LEGS_AT: Record<string, { bridge_rail: readonly (BridgeTransferStatus | null)[]; payout_rail: readonly (ForeignPayoutStatus | null)[] }> = {
  none: { bridge_rail: [null, 'in_review', 'rejected', 'returned'], payout_rail: [null, 'returned'] },
  bridge_rail_in_transit: { bridge_rail: ['pending'], payout_rail: [null] },
  at_bridge_rail: { bridge_rail: ['completed'], payout_rail: [null, 'returned'] },
  payout_rail_in_transit: { bridge_rail: ['completed'], payout_rail: ['processing', 'failed'] },
  paid_abroad: { bridge_rail: ['completed'], payout_rail: ['completed'] },
};

export type RailDifferenceProblem =
  /** The rail holds money under a reference that is none of our intents. */
  | 'unknown_to_ledger'
  /** The rail's leg is not in a status the ledger's place for the money allows (no leg at all included). */
  | 'status_differs'
  /** The rail's leg carries another amount or currency than the intent sent. */
  | 'amount_differs'
  /** The rail did not answer. */
  | 'unanswered';

/** One difference between the ledger and a rail, as `ledger:verify` names it. */
export interface RailDifference {
  /** Our reference at the rail (the intent's id); null for the rail's balance itself. */
  reference: string | null;
  rail: HoldingRail;
  problem: RailDifferenceProblem;
  /** Where the ledger has the intent's money, with the amount (major units); null for a reference that is no intent. */
  ledger: { place: LedgerPlace; currency: string; amount: number } | null;
  /** The rail's leg: its status, what it was sent (major units) and its return's status; null when it has none, or did not answer. */
  found: { status: string; currency: string; amount: number; returnStatus: string | null } | null;
}

type AnyLeg = RailLeg<string>;

const major = ({ currency, amount }: RailAmount) => ({ currency, amount: toMajorUnits(amount, currency) });

function describe(leg: AnyLeg | null): RailDifference['found'] {
  return leg && { status: leg.status, ...major(leg.sent), returnStatus: leg.return?.status ?? null };
}

/** A rail's leg under a reference that is none of our intents: a difference only when it holds money. */
export function unknownLeg(rail: HoldingRail, leg: AnyLeg): RailDifference {
  return { reference: leg.reference, rail, problem: 'unknown_to_ledger', ledger: null, found: describe(leg) };
}

/** A rail that could not be asked about a reference, or (null) for its balance. */
export function unansweredLeg(rail: HoldingRail, reference: string | null): RailDifference {
  return { reference, rail, problem: 'unanswered', ledger: null, found: null };
}

/**
 * The differences between where the ledger has an intent's money (`positions`: the platform
 * accounts' sums over its postings) and what each rail says of its leg. Each leg must be in a
 * status the ledger's place allows (see LEGS_AT) and carry what the intent sent it (the bridge
 * rail the converted NGN, the payout rail the recipient's amount). Once an operator cleared an
 * intent's receivable by hand after a rail refused its return, the rail keeps its own record of a
 * leg the ledger has closed: nothing to compare.
 */
export function railDifferences(
  intent: IntentSent,
  positions: Partial<Record<PlatformAccount, number>>,
  legs: Record<HoldingRail, AnyLeg | null>,
): RailDifference[] {
  const position = railPosition(positions);
  const place: LedgerPlace = position?.account ?? 'none';
  if (place === 'none' && Object.values(legs).some((leg) => leg?.return?.status === 'refused')) return [];
  const converted = minorFromColumn(intent.convertedAmount);
  const ledger = { place, ...major({ currency: intent.sourceCurrency, amount: position?.amount ?? 0 }) };
  const expectedSent: Record<HoldingRail, RailAmount> = {
    bridge_rail: { currency: intent.sourceCurrency, amount: converted },
    payout_rail: { currency: intent.currency, amount: minorFromColumn(intent.amount) },
  };
  const differences: RailDifference[] = [];
  for (const rail of ['bridge_rail', 'payout_rail'] as const) {
    const leg = legs[rail];
    const difference = (problem: RailDifferenceProblem) => differences.push({ reference: intent.id, rail, problem, ledger, found: describe(leg) });
    if (!(LEGS_AT[place][rail] as readonly (string | null)[]).includes(leg?.status ?? null)) difference('status_differs');
    else if (leg && (leg.sent.currency !== expectedSent[rail].currency || leg.sent.amount !== expectedSent[rail].amount)) difference('amount_differs');
  }
  return differences;
}
