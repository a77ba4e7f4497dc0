import { isValidNuban, nubanCheckDigit, nubanFor } from './nuban';

describe('NUBAN', () => {
  it('computes the check digit with the CBN weights', () => {
    // 058 + 000000002: 0*3+5*7+8*3 + 2*3 (the ninth serial digit's weight) = 35+24+6 = 65 → (10 − 5) mod 10 = 5
    expect(nubanCheckDigit('058', '000000002')).toBe(5);
    // The sandbox's magic payout accounts are valid at bank 058.
    expect(isValidNuban('058', '0000000025')).toBe(true);
    expect(isValidNuban('058', '0000000032')).toBe(true);
    expect(isValidNuban('058', '0000000049')).toBe(true);
  });

  it('gives 0, not 10, when the weighted sum is a multiple of 10', () => {
    expect(nubanCheckDigit('000', '000000000')).toBe(0);
    expect(nubanFor('000', '000000000')).toBe('0000000000');
  });

  it('refuses a wrong check digit, a wrong length and non-digits', () => {
    expect(isValidNuban('058', '0000000026')).toBe(false);
    expect(isValidNuban('058', '000000025')).toBe(false);
    expect(isValidNuban('058', '00000000250')).toBe(false);
    expect(isValidNuban('58', '0000000025')).toBe(false);
    expect(isValidNuban('058', '00000000a5')).toBe(false);
  });

  it('round-trips: every serial gets exactly one valid check digit', () => {
    for (const serial of ['123456789', '987654321', '000000001', '555555555']) {
      const valid = Array.from({ length: 10 }, (_, d) => `${serial}${d}`).filter((n) => isValidNuban('044', n));
      expect(valid).toEqual([nubanFor('044', serial)]);
    }
  });
});
