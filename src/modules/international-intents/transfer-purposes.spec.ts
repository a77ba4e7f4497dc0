import { canonicalTransferPurpose, TRANSFER_PURPOSES } from './transfer-purposes';

describe('transfer purposes', () => {
  it("lists Harbor's recommended values once each, trimmed", () => {
    expect(TRANSFER_PURPOSES).toHaveLength(29);
    expect(new Set(TRANSFER_PURPOSES.map((p) => p.toLowerCase())).size).toBe(TRANSFER_PURPOSES.length);
    for (const purpose of TRANSFER_PURPOSES) expect(purpose).toBe(purpose.trim());
    expect(TRANSFER_PURPOSES).toEqual(
      expect.arrayContaining(['Salary', 'Family Maintenance', 'Transfer to own account', 'General Goods Trades - Offline trade']),
    );
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(TRANSFER_PURPOSES)).toBe(true);
  });

  it('maps every listed value to itself', () => {
    for (const purpose of TRANSFER_PURPOSES) expect(canonicalTransferPurpose(purpose)).toBe(purpose);
  });

  it.each([
    ['salary', 'Salary'],
    ['  FAMILY MAINTENANCE\t', 'Family Maintenance'],
    ['\ntransfer to own account ', 'Transfer to own account'],
    ['advertising & public relations-related expenses', 'Advertising & Public relations-related expenses'],
    ['Royalty Fees, Trademark Fees, Patent Fees, and Copyright Fees', 'Royalty fees, trademark fees, patent fees, and copyright fees'],
    ['general goods trades - offline trade', 'General Goods Trades - Offline trade'],
  ])('gives %j the listed spelling', (input, canonical) => {
    expect(canonicalTransferPurpose(input)).toBe(canonical);
  });

  it.each(['', '   ', 'Salaries', 'Family  Maintenance', 'Payment for Goods', 'Software', 'Other'])('knows nothing of %j', (input) => {
    expect(canonicalTransferPurpose(input)).toBeUndefined();
  });
});
