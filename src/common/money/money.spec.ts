import fc from 'fast-check';
import { formatMoney, MAX_MAJOR_AMOUNT, toMajorUnits, toMinorUnits } from './money';

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

describe('formatMoney', () => {
  it.each([
    [150000, 'USD', '1,500.00 USD'],
    [248775188, 'NGN', '2,487,751.88 NGN'],
    [5, 'NGN', '0.05 NGN'],
    [0, 'NGN', '0.00 NGN'],
    [-123456, 'NGN', '-1,234.56 NGN'],
    [100, 'NGN', '1.00 NGN'],
    [123456789, 'USDC', '123.456789 USDC'],
    [Number.MAX_SAFE_INTEGER, 'NGN', '90,071,992,547,409.91 NGN'],
  ])('writes %d minor units of %s exactly as %s', (minor, currency, text) => {
    expect(formatMoney(minor, currency)).toBe(text);
  });

  it("agrees with the API's major units for every amount the API shows", () => {
    for (const minor of [1, 9, 10, 99, 101, 1999, 100000, 248775188, 10000000000000, 9999999999999]) {
      for (const currency of ['NGN', 'USD', 'USDC']) {
        expect(Number(formatMoney(minor, currency).split(' ')[0].replaceAll(',', ''))).toBe(toMajorUnits(minor, currency));
      }
    }
  });

  it('refuses what is not an integer count of minor units', () => {
    expect(() => formatMoney(1.5, 'NGN')).toThrow();
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 1, 'NGN')).toThrow();
  });
});
