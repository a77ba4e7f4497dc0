import type { RailLeg, RailReturn } from '../cross-border-rails';
import { railDifferences, unknownLeg } from './international-reconciliation';

const intent = { id: 'ipi_1', sourceCurrency: 'NGN', convertedAmount: '155075000', currency: 'USD', amount: '100000' };
const CONVERTED = 155_075_000;

function leg(status: string, sent: { currency: string; amount: number }, returned: RailReturn['status'] | null = null): RailLeg<string> {
  return {
    id: 'leg_1',
    reference: 'ipi_1',
    status,
    failureCode: null,
    failureMessage: null,
    sent,
    return: returned && { status: returned, amount: null, failureCode: null },
    updatedAt: new Date('2030-01-01T00:00:00Z'),
  };
}
const transfer = (status: string, returned: RailReturn['status'] | null = null, amount = CONVERTED) => leg(status, { currency: 'NGN', amount }, returned);
const payout = (status: string, returned: RailReturn['status'] | null = null) => leg(status, { currency: 'USD', amount: 100_000 }, returned);

describe('the ledger against the rails', () => {
  it.each([
    ['reserved, no leg yet', {}, null, null],
    ['reserved, the transfer under compliance review', {}, transfer('in_review'), null],
    ['on its way to the bridge rail', { bridge_rail_in_transit: CONVERTED }, transfer('pending'), null],
    ['at the bridge rail', { at_bridge_rail: CONVERTED }, transfer('completed'), null],
    ['on its way through the payout rail', { payout_rail_in_transit: CONVERTED }, transfer('completed'), payout('processing')],
    ['paid abroad', { paid_abroad: CONVERTED, fee_revenue: 100 }, transfer('completed'), payout('completed')],
    ['rejected, its return pending', { at_bridge_rail: CONVERTED, receivable_bridge_rail: -CONVERTED }, transfer('completed', 'pending'), null],
    [
      'a failed payout waiting to be returned',
      { payout_rail_in_transit: CONVERTED, receivable_payout_rail: -CONVERTED },
      transfer('completed'),
      payout('failed'),
    ],
    [
      'returned by the payout rail, the bridge rail asked next',
      { at_bridge_rail: CONVERTED, receivable_bridge_rail: -CONVERTED },
      transfer('completed'),
      payout('returned'),
    ],
    ['returned by both rails', { bank_rail: 1000, recovery_differences: -1000 }, transfer('returned', 'completed'), payout('returned', 'completed')],
    ['rejected by the bridge rail', {}, transfer('rejected'), null],
    ['written off after the bridge rail refused to return it', { lost_at_rails: CONVERTED, written_off: -CONVERTED }, transfer('completed', 'refused'), null],
  ])('agree when %s', (_name, positions, bridge, payoutLeg) => {
    expect(railDifferences(intent, positions, { bridge_rail: bridge, payout_rail: payoutLeg })).toEqual([]);
  });

  it('names a return the rail made that the ledger has not booked', () => {
    expect(railDifferences(intent, { at_bridge_rail: CONVERTED }, { bridge_rail: transfer('returned', 'completed'), payout_rail: null })).toEqual([
      {
        reference: 'ipi_1',
        rail: 'bridge_rail',
        problem: 'status_differs',
        ledger: { place: 'at_bridge_rail', currency: 'NGN', amount: 1_550_750 },
        found: { status: 'returned', currency: 'NGN', amount: 1_550_750, returnStatus: 'completed' },
      },
    ]);
  });

  it('names money the ledger places at a rail that has no leg for it, on each rail', () => {
    expect(railDifferences(intent, { payout_rail_in_transit: CONVERTED }, { bridge_rail: null, payout_rail: null })).toEqual([
      expect.objectContaining({ rail: 'bridge_rail', problem: 'status_differs', found: null }),
      expect.objectContaining({ rail: 'payout_rail', problem: 'status_differs', found: null }),
    ]);
  });

  it('names a leg the ledger knows nothing of, for an intent still reserved', () => {
    expect(railDifferences(intent, {}, { bridge_rail: transfer('pending'), payout_rail: null })).toEqual([
      expect.objectContaining({ rail: 'bridge_rail', problem: 'status_differs', ledger: { place: 'none', currency: 'NGN', amount: 0 } }),
    ]);
  });

  it('names a leg carrying another amount than the intent sent', () => {
    expect(
      railDifferences(intent, { bridge_rail_in_transit: CONVERTED }, { bridge_rail: transfer('pending', null, CONVERTED - 1), payout_rail: null }),
    ).toEqual([expect.objectContaining({ rail: 'bridge_rail', problem: 'amount_differs', found: expect.objectContaining({ amount: 1_550_749.99 }) })]);
  });

  it('names a leg under a reference that is no intent', () => {
    expect(unknownLeg('payout_rail', { ...payout('processing'), reference: 'ipi_ghost' })).toEqual({
      reference: 'ipi_ghost',
      rail: 'payout_rail',
      problem: 'unknown_to_ledger',
      ledger: null,
      found: { status: 'processing', currency: 'USD', amount: 1000, returnStatus: null },
    });
  });
});
