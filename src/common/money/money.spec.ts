import fc from 'fast-check';
import { MAX_MAJOR_AMOUNT, toMajorUnits, toMinorUnits } from './money';

describe('money', () => {
  it('reads major units exactly, without floating-point arithmetic', () => {
    expect(toMinorUnits(1234.56, 'NGN')).toBe(123456);
    expect(toMinorUnits(0.3, 'NGN')).toBe(30);
    expect(toMinorUnits(100.1, 'NGN')).toBe(10010);
    expect(toMinorUnits(0.01, 'NGN')).toBe(1);
    expect(toMinorUnits(5, 'NGN')).toBe(500);
    expect(toMinorUnits(1.123456, 'USDC')).toBe(1123456);
    expect(toMinorUnits(MAX_MAJOR_AMOUNT, 'NGN')).toBe(10_000_000_000_000);
  });

  it('refuses what is not a positive amount of the currency', () => {
    for (const value of [0, -1, -0.01, 0.001, 1.234, 1e-7, MAX_MAJOR_AMOUNT + 0.01, Infinity, NaN, '10', null, undefined, {}]) {
      expect(toMinorUnits(value, 'NGN')).toBeUndefined();
    }
    expect(toMinorUnits(1.1234567, 'USDC')).toBeUndefined();
  });

  it('writes minor units back as the number a client would write', () => {
    expect(toMajorUnits(123456, 'NGN')).toBe(1234.56);
    expect(JSON.stringify(toMajorUnits(10010, 'NGN'))).toBe('100.1');
    expect(toMajorUnits(1, 'NGN')).toBe(0.01);
    expect(toMajorUnits(-250, 'NGN')).toBe(-2.5);
    expect(toMajorUnits(0, 'NGN')).toBe(0);
    expect(toMajorUnits(1, 'USDC')).toBe(0.000001);
  });

  it('round-trips every amount of two decimals up to the maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000_000 }), (minor) => toMinorUnits(toMajorUnits(minor, 'NGN'), 'NGN') === minor),
      { numRuns: 5_000 },
    );
  });
});
