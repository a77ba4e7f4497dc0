import fc from 'fast-check';
import { AccountRef, Posting } from '../ledger';
import { INTERNATIONAL_INTENT_STATES, InternationalIntentStatus, PIPELINE_ORDER } from './international-intent.states';
import type { RailLeg, RailReturn } from '../cross-border-rails';
import { payoutReturnPosting, railToRecoverFrom, receivableClearing, reservationPosting, transitionPosting } from './international-postings';
import { railDifferences } from './international-reconciliation';

// Amounts as their columns hold them: kobo.
const intent = {
  id: 'ipi_1',
  merchantId: 'mer_1',
  sourceAmount: '157451125',
  convertedAmount: '155075000',
  fee: '2376125',
  sourceCurrency: 'NGN',
  currency: 'USD',
  amount: '100000',
};
const SOURCE = 157_451_125;
const CONVERTED = 155_075_000;
const FEE = 2_376_125;

const name = (account: AccountRef) => ('platform' in account ? account.platform : account.kind);

/** Balances by account after applying postings (kobo, credits positive). */
function apply(postings: (Posting | undefined)[]): Record<string, number> {
  const balances: Record<string, number> = {};
  for (const posting of postings) {
    if (!posting) continue;
    expect(posting.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(0);
    for (const { account, amount } of posting.lines) balances[name(account)] = (balances[name(account)] ?? 0) + amount;
  }
  return Object.fromEntries(Object.entries(balances).filter(([, amount]) => amount !== 0));
}

/** The postings of the pipeline up to `status`, from the reservation on. */
function pathTo(status: InternationalIntentStatus): (Posting | undefined)[] {
  const path = PIPELINE_ORDER.slice(0, PIPELINE_ORDER.indexOf(status) + 1);
  return [reservationPosting(intent), ...path.slice(1).map((to, i) => transitionPosting(intent, path[i], to))];
}

describe('international postings', () => {
  it('follow the converted amount through each rail to the recipient, the fee recognised at settlement', () => {
    expect(apply(pathTo('pending'))).toEqual({ available: -SOURCE, reserved: SOURCE });
    expect(apply(pathTo('processing'))).toEqual({ available: -SOURCE, reserved: SOURCE });
    expect(apply(pathTo('bridge_initiated'))).toEqual({ available: -SOURCE, reserved: FEE, bridge_rail_in_transit: CONVERTED });
    expect(apply(pathTo('bridge_confirmed'))).toEqual({ available: -SOURCE, reserved: FEE, at_bridge_rail: CONVERTED });
    expect(apply(pathTo('withdrawal_initiated'))).toEqual({ available: -SOURCE, reserved: FEE, payout_rail_in_transit: CONVERTED });
    expect(apply(pathTo('withdrawal_confirmed'))).toEqual({ available: -SOURCE, reserved: FEE, paid_abroad: CONVERTED });
    expect(apply(pathTo('settled'))).toEqual({ available: -SOURCE, paid_abroad: CONVERTED, fee_revenue: FEE });
  });

  it('give the merchant its whole source amount back on a rejection from any state, the rest a receivable on the rail that holds it', () => {
    const held: Partial<Record<InternationalIntentStatus, Record<string, number>>> = {
      pending: {},
      processing: {},
      bridge_initiated: { bridge_rail_in_transit: CONVERTED, receivable_bridge_rail: -CONVERTED },
      bridge_confirmed: { at_bridge_rail: CONVERTED, receivable_bridge_rail: -CONVERTED },
      withdrawal_initiated: { payout_rail_in_transit: CONVERTED, receivable_payout_rail: -CONVERTED },
      withdrawal_confirmed: { paid_abroad: CONVERTED, receivable_payout_rail: -CONVERTED },
    };
    for (const [from, rest] of Object.entries(held) as [InternationalIntentStatus, Record<string, number>][]) {
      expect(INTERNATIONAL_INTENT_STATES.can(from, 'rejected')).toBe(true);
      const rejection = transitionPosting(intent, from, 'rejected')!;
      // The merchant's available balance is back where it was; nothing stays reserved.
      expect(apply([...pathTo(from), rejection])).toEqual(rest);
      expect(rejection.balanceTransactions).toEqual([{ merchantId: 'mer_1', type: 'international_payment_reversal', amount: SOURCE }]);
    }
  });

  it('moves nothing for a move without money', () => {
    expect(transitionPosting(intent, 'pending', 'processing')).toBeUndefined();
    expect(transitionPosting({ ...intent, fee: '0', sourceAmount: intent.convertedAmount }, 'withdrawal_confirmed', 'settled')).toBeUndefined();
  });

  describe('clearing a receivable', () => {
    /** The platform's accounts after a rejection from `from` (what `platformPositions` reads). */
    const platformAfter = (from: InternationalIntentStatus) => {
      const all = apply([...pathTo(from), transitionPosting(intent, from, 'rejected')]);
      return Object.fromEntries(Object.entries(all).filter(([kind]) => kind !== 'available' && kind !== 'reserved'));
    };

    it('closes the position and the receivable when the money came back whole', () => {
      const clearing = receivableClearing(
        intent,
        platformAfter('bridge_confirmed'),
        { kind: 'recovered', amount: CONVERTED },
        'Returned by the bridge rail by hand',
      )!;
      expect(clearing).toMatchObject({
        receivable: 'receivable_bridge_rail',
        owed: CONVERTED,
        posting: { type: 'international_receivable_recovered', note: 'Returned by the bridge rail by hand' },
      });
      expect(apply([...pathTo('bridge_confirmed'), transitionPosting(intent, 'bridge_confirmed', 'rejected'), clearing.posting])).toEqual({});
    });

    it("books a shortfall to the platform's recovery differences, never to the merchant", () => {
      const clearing = receivableClearing(intent, platformAfter('withdrawal_initiated'), { kind: 'recovered', amount: CONVERTED - 12_345 }, 'FX moved')!;
      expect(clearing.receivable).toBe('receivable_payout_rail');
      expect(apply([...pathTo('withdrawal_initiated'), transitionPosting(intent, 'withdrawal_initiated', 'rejected'), clearing.posting])).toEqual({
        bank_rail: 12_345,
        recovery_differences: -12_345,
      });
    });

    it('writes off: the position lost at the rails, the receivable an expense', () => {
      const clearing = receivableClearing(intent, platformAfter('bridge_initiated'), { kind: 'written_off' }, 'Rail insolvent')!;
      expect(clearing.posting.type).toBe('international_receivable_written_off');
      expect(apply([...pathTo('bridge_initiated'), transitionPosting(intent, 'bridge_initiated', 'rejected'), clearing.posting])).toEqual({
        lost_at_rails: CONVERTED,
        written_off: -CONVERTED,
      });
    });

    it('finds nothing to clear before the bridge leg, or once cleared', () => {
      expect(receivableClearing(intent, platformAfter('processing'), { kind: 'written_off' }, 'n')).toBeUndefined();
      const once = receivableClearing(intent, platformAfter('bridge_initiated'), { kind: 'written_off' }, 'n')!;
      const platform = apply([...pathTo('bridge_initiated'), transitionPosting(intent, 'bridge_initiated', 'rejected'), once.posting]);
      expect(receivableClearing(intent, platform, { kind: 'written_off' }, 'n')).toBeUndefined();
    });
  });
});

/**
 * Random runs of one intent through the pipeline, rejections from any state, the rails' returns
 * (at any rate) and an operator's clearing, applied as the service applies them: after every step
 * each posting balances, the merchant's balances are never negative, available + reserved is what
 * was funded less what settled (less what is at the rails while in flight), nothing is ever owed to
 * a rail, and after a rejection what the platform is owed is exactly what the rails hold. The rails'
 * records, moved by the same steps, agree with the ledger at every step (`railDifferences`).
 */
describe('international postings, property', () => {
  type Step =
    | { kind: 'advance' }
    | { kind: 'reject' }
    | { kind: 'payout_return' }
    | { kind: 'bridge_return'; permille: number }
    | { kind: 'clear'; writeOff: boolean; permille: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { arbitrary: fc.constant<Step>({ kind: 'advance' }), weight: 6 },
    { arbitrary: fc.constant<Step>({ kind: 'reject' }), weight: 1 },
    { arbitrary: fc.constant<Step>({ kind: 'payout_return' }), weight: 2 },
    { arbitrary: fc.integer({ min: 900, max: 1100 }).map((permille): Step => ({ kind: 'bridge_return', permille })), weight: 2 },
    { arbitrary: fc.record({ writeOff: fc.boolean(), permille: fc.integer({ min: 1, max: 1100 }) }).map((c): Step => ({ kind: 'clear', ...c })), weight: 1 },
  );

  it('keeps the books whole whatever happens in whatever order', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 14 }), (steps) => {
        const funding: Posting = {
          sourceId: 'pay_1',
          currency: 'NGN',
          type: 'payment',
          lines: [
            { account: { platform: 'bank_rail' }, amount: -SOURCE },
            { account: { merchantId: 'mer_1', kind: 'available' }, amount: SOURCE },
          ],
        };
        const postings: (Posting | undefined)[] = [funding, reservationPosting(intent)];
        let status: InternationalIntentStatus = 'pending';
        // What each rail's record of its leg says, as the steps change it.
        const legs: Record<'bridge_rail' | 'payout_rail', RailLeg<string> | null> = { bridge_rail: null, payout_rail: null };
        const leg = (status: string, sent: RailLeg<string>['sent']): RailLeg<string> => ({
          id: 'leg',
          reference: intent.id,
          status,
          failureCode: null,
          failureMessage: null,
          sent,
          return: null,
          updatedAt: new Date(0),
        });
        const railMoves: Partial<Record<InternationalIntentStatus, () => void>> = {
          bridge_initiated: () => (legs.bridge_rail = leg('pending', { currency: 'NGN', amount: CONVERTED })),
          bridge_confirmed: () => (legs.bridge_rail!.status = 'completed'),
          withdrawal_initiated: () => (legs.payout_rail = leg('processing', { currency: 'USD', amount: 100_000 })),
          withdrawal_confirmed: () => (legs.payout_rail!.status = 'completed'),
        };
        const returned = (rail: 'bridge_rail' | 'payout_rail', outcome: RailReturn['status']) => {
          const held = legs[rail]!;
          held.return = { status: outcome, amount: null, failureCode: null };
          if (outcome === 'completed') held.status = 'returned';
        };
        const platform = () => Object.fromEntries(Object.entries(apply(postings)).filter(([kind]) => kind !== 'available' && kind !== 'reserved'));
        for (const s of steps) {
          if (s.kind === 'advance' && status !== 'rejected') {
            const next: InternationalIntentStatus | undefined = PIPELINE_ORDER[PIPELINE_ORDER.indexOf(status) + 1];
            if (next && INTERNATIONAL_INTENT_STATES.can(status, next)) {
              postings.push(transitionPosting(intent, status, next));
              railMoves[next]?.();
              status = next;
            }
          } else if (s.kind === 'reject' && INTERNATIONAL_INTENT_STATES.can(status, 'rejected')) {
            postings.push(transitionPosting(intent, status, 'rejected'));
            status = 'rejected';
          } else if (s.kind === 'payout_return' && status === 'rejected' && railToRecoverFrom(platform()) === 'payout_rail') {
            postings.push(payoutReturnPosting(intent, platform()));
            returned('payout_rail', 'completed');
          } else if (s.kind === 'bridge_return' && status === 'rejected' && railToRecoverFrom(platform()) === 'bridge_rail') {
            postings.push(receivableClearing(intent, platform(), { kind: 'returned', amount: Math.floor((CONVERTED * s.permille) / 1000) })?.posting);
            returned('bridge_rail', 'completed');
          } else if (s.kind === 'clear' && status === 'rejected' && railToRecoverFrom(platform())) {
            // An operator clears a receivable once the rail that owes it refused to return it.
            returned(railToRecoverFrom(platform())!, 'refused');
            const outcome = s.writeOff
              ? ({ kind: 'written_off' } as const)
              : ({ kind: 'recovered', amount: Math.floor((CONVERTED * s.permille) / 1000) } as const);
            postings.push(receivableClearing(intent, platform(), outcome, 'by hand')?.posting);
          }
          // apply() checks that every posting balances.
          const books = apply(postings);
          const available = books.available ?? 0;
          const reserved = books.reserved ?? 0;
          expect(available).toBeGreaterThanOrEqual(0);
          expect(reserved).toBeGreaterThanOrEqual(0);
          const atRails = ['bridge_rail_in_transit', 'at_bridge_rail', 'payout_rail_in_transit', 'paid_abroad'].reduce(
            (sum, kind) => sum + (books[kind] ?? 0),
            0,
          );
          // The merchant's money is what it funded less what settled; while in flight, the part that
          // left its reservation is at the rails.
          if (status === 'settled') expect(available + reserved).toBe(0);
          else if (status === 'rejected') expect([available, reserved]).toEqual([SOURCE, 0]);
          else expect(available + reserved + atRails).toBe(SOURCE);
          for (const kind of ['receivable_bridge_rail', 'receivable_payout_rail']) expect(books[kind] ?? 0).toBeLessThanOrEqual(0);
          for (const kind of ['bridge_rail_in_transit', 'at_bridge_rail', 'payout_rail_in_transit', 'paid_abroad'])
            expect(books[kind] ?? 0).toBeGreaterThanOrEqual(0);
          // What the platform advanced is always exactly what sits at the rails for it.
          const owed = 0 - ((books.receivable_bridge_rail ?? 0) + (books.receivable_payout_rail ?? 0));
          if (status === 'rejected') expect(atRails).toBe(owed);
          expect(railDifferences(intent, platform(), legs)).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });
});
