import fc from 'fast-check';
import { parseRate, quoteSourceAmount, QuoteRequest } from './fx';
import { decimalsOf, MAX_MAJOR_AMOUNT, toMinorUnits } from '../../common/money/money';

const quote = (overrides: Partial<QuoteRequest>) =>
  quoteSourceAmount({ destinationMinor: 100, destinationCurrency: 'USD', rate: '1500', fixedFeeMinor: 0, feeBps: 0, ...overrides });

/** NGN 100 billion in kobo. */
const MAX_KOBO = toMinorUnits(MAX_MAJOR_AMOUNT, 'NGN')!;

describe('parseRate', () => {
  it.each([
    ['1650.123', 1650123n, 3],
    ['1500', 1500n, 0],
    ['0.00000001', 1n, 8],
    ['0.5', 5n, 1],
    ['1650.12300000', 165012300000n, 8],
    ['99999999.99999999', 9999999999999999n, 8],
    ['007.5', 75n, 1],
  ])('reads %s exactly', (rate, units, scale) => {
    expect(parseRate(rate)).toEqual({ units, scale });
  });

  it.each([
    '',
    '0',
    '0.0',
    '0.00000000',
    '-1',
    '+1',
    '1e3',
    '1E-3',
    '1.',
    '.5',
    '1.123456789',
    ' 1',
    '1 ',
    '1,650.12',
    '1_000',
    'NaN',
    'Infinity',
    '0x10',
    '١٥٠٠',
  ])('refuses %j', (rate) => {
    expect(parseRate(rate)).toBeUndefined();
  });
});

describe('quoteSourceAmount', () => {
  it('rounds the converted amount up to the next kobo', () => {
    // 0.01 USD × 1650.123 NGN/USD = NGN 16.50123 = 1650.123 kobo → 1651
    expect(quote({ destinationMinor: 1, rate: '1650.123' })).toEqual({ convertedMinor: 1651, feeMinor: 0, sourceMinor: 1651 });
    // Trailing zeros change nothing.
    expect(quote({ destinationMinor: 1, rate: '1650.12300000' })).toEqual({ convertedMinor: 1651, feeMinor: 0, sourceMinor: 1651 });
  });

  it('does not round an exact amount', () => {
    // 100.00 USD × 1650.123 = NGN 165,012.30
    expect(quote({ destinationMinor: 10_000, rate: '1650.123' })).toEqual({ convertedMinor: 16_501_230, feeMinor: 0, sourceMinor: 16_501_230 });
    // 100.00 USD × 1500 = NGN 150,000
    expect(quote({ destinationMinor: 10_000 })).toEqual({ convertedMinor: 15_000_000, feeMinor: 0, sourceMinor: 15_000_000 });
  });

  it('never quotes less than a kobo for a positive amount', () => {
    // 0.01 × 0.00000001 NGN = 0.000001 kobo → 1
    expect(quote({ destinationMinor: 1, rate: '0.00000001' })).toEqual({ convertedMinor: 1, feeMinor: 0, sourceMinor: 1 });
    // 1.00 × 0.005 NGN = 0.5 kobo → 1
    expect(quote({ destinationMinor: 100, rate: '0.005' })).toEqual({ convertedMinor: 1, feeMinor: 0, sourceMinor: 1 });
  });

  it('charges a percentage fee on the converted kobo, rounded up', () => {
    // 1.5% of NGN 150,000 = NGN 2,250 exactly
    expect(quote({ destinationMinor: 10_000, feeBps: 150 })).toEqual({ convertedMinor: 15_000_000, feeMinor: 225_000, sourceMinor: 15_225_000 });
    // 1.5% of 1651 kobo = 24.765 → 25
    expect(quote({ destinationMinor: 1, rate: '1650.123', feeBps: 150 })).toEqual({ convertedMinor: 1651, feeMinor: 25, sourceMinor: 1676 });
    // 0.01% of 1 kobo = 0.0001 → 1
    expect(quote({ destinationMinor: 1, rate: '0.5', feeBps: 1 })).toEqual({ convertedMinor: 1, feeMinor: 1, sourceMinor: 2 });
    // 100% doubles it.
    expect(quote({ destinationMinor: 10_000, feeBps: 10_000 })).toEqual({ convertedMinor: 15_000_000, feeMinor: 15_000_000, sourceMinor: 30_000_000 });
  });

  it('adds the fixed fee to the percentage', () => {
    // 250.75 USD × 1532.45678901 = NGN 384,263.5398442575 → 38,426,354 kobo;
    // 0.75% of it = 288,197.655 → 288,198 kobo, plus NGN 50 fixed = 293,198 kobo.
    expect(quote({ destinationMinor: 25_075, rate: '1532.45678901', fixedFeeMinor: 5_000, feeBps: 75 })).toEqual({
      convertedMinor: 38_426_354,
      feeMinor: 293_198,
      sourceMinor: 38_719_552,
    });
    // A fixed fee alone.
    expect(quote({ destinationMinor: 10_000, fixedFeeMinor: 10_000 })).toEqual({ convertedMinor: 15_000_000, feeMinor: 10_000, sourceMinor: 15_010_000 });
  });

  it("reads the destination's minor units from the money module", () => {
    // 1.5 USDC (6 decimals) × 1600.5 = NGN 2,400.75
    expect(quote({ destinationMinor: 1_500_000, destinationCurrency: 'USDC', rate: '1600.5' })).toEqual({
      convertedMinor: 240_075,
      feeMinor: 0,
      sourceMinor: 240_075,
    });
    // 0.000001 USDC × 1600.5 = 0.16005 kobo → 1
    expect(quote({ destinationMinor: 1, destinationCurrency: 'USDC', rate: '1600.5' })).toEqual({ convertedMinor: 1, feeMinor: 0, sourceMinor: 1 });
  });

  it('quotes up to the maximum amount and no further', () => {
    expect(MAX_KOBO).toBe(10_000_000_000_000);
    expect(quote({ destinationMinor: MAX_KOBO, rate: '1' })).toEqual({ convertedMinor: MAX_KOBO, feeMinor: 0, sourceMinor: MAX_KOBO });
    expect(quote({ destinationMinor: MAX_KOBO + 1, rate: '1' })).toBeUndefined();
    expect(quote({ destinationMinor: MAX_KOBO, rate: '1', fixedFeeMinor: 1 })).toBeUndefined();
    expect(quote({ destinationMinor: MAX_KOBO, rate: '1.00000001' })).toBeUndefined();
    // 9,900,990,099,009 + ⌈1% of it⌉ = 9,900,990,099,009 + 99,009,900,991 = exactly the maximum
    expect(quote({ destinationMinor: 9_900_990_099_009, rate: '1', feeBps: 100 })).toEqual({
      convertedMinor: 9_900_990_099_009,
      feeMinor: 99_009_900_991,
      sourceMinor: MAX_KOBO,
    });
    expect(quote({ destinationMinor: 9_900_990_099_010, rate: '1', feeBps: 100 })).toBeUndefined();
    // The largest destination amount the API accepts, at a realistic rate, and intermediates far past 2^53.
    expect(quote({ destinationMinor: toMinorUnits(MAX_MAJOR_AMOUNT, 'USD')!, rate: '1650.123' })).toBeUndefined();
    expect(
      quote({ destinationMinor: Number.MAX_SAFE_INTEGER, rate: '99999999.99999999', fixedFeeMinor: Number.MAX_SAFE_INTEGER, feeBps: 10_000 }),
    ).toBeUndefined();
  });

  it.each<[string, Partial<QuoteRequest>]>([
    ['an unparsable rate', { rate: '1,650.12' }],
    ['a zero rate', { rate: '0' }],
    ['a negative rate', { rate: '-1500' }],
    ['a rate with 9 decimal places', { rate: '1500.123456789' }],
    ['a zero destination amount', { destinationMinor: 0 }],
    ['a negative destination amount', { destinationMinor: -100 }],
    ['a fractional destination amount', { destinationMinor: 100.5 }],
    ['an unsafe destination amount', { destinationMinor: 2 ** 53 }],
    ['a negative fixed fee', { fixedFeeMinor: -1 }],
    ['a fractional fixed fee', { fixedFeeMinor: 0.5 }],
    ['a negative fee rate', { feeBps: -1 }],
    ['a fee rate over 100%', { feeBps: 10_001 }],
    ['a fractional fee rate', { feeBps: 12.5 }],
    ['NaN', { feeBps: NaN }],
  ])('throws on %s', (_why, overrides) => {
    expect(() => quote(overrides)).toThrow(/^fx: /);
  });

  it('never charges less than the exact price, nor 3 kobo or more above it', () => {
    const rateText = (units: bigint, scale: number) => {
      const digits = units.toString().padStart(scale + 1, '0');
      return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000_000 }),
        fc.constantFrom('USD', 'EUR', 'GBP', 'USDC'),
        fc.bigInt({ min: 1n, max: 200_000_000_000n }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (destinationMinor, destinationCurrency, units, scale, fixedFeeMinor, feeBps) => {
          const rate = rateText(units, scale);
          const result = quoteSourceAmount({ destinationMinor, destinationCurrency, rate, fixedFeeMinor, feeBps });
          // The exact price in kobo is a rational number: exact / denominator, computed here without rounding.
          const convertedExact = BigInt(destinationMinor) * units * 100n; // over 10^(dd + scale)
          const unit = 10n ** BigInt(decimalsOf(destinationCurrency) + scale);
          const denominator = unit * 10_000n;
          const exact = convertedExact * (10_000n + BigInt(feeBps)) + BigInt(fixedFeeMinor) * denominator;
          if (result === undefined) return exact > (BigInt(MAX_KOBO) - 3n) * denominator;
          const { convertedMinor, feeMinor, sourceMinor } = result;
          const source = BigInt(sourceMinor);
          return (
            [convertedMinor, feeMinor, sourceMinor].every(Number.isSafeInteger) &&
            sourceMinor === convertedMinor + feeMinor &&
            sourceMinor <= MAX_KOBO &&
            // convertedMinor is the least whole kobo not below the exact conversion
            BigInt(convertedMinor) * unit >= convertedExact &&
            (BigInt(convertedMinor) - 1n) * unit < convertedExact &&
            // sourceMinor × 10000 ≥ the exact value × 10000, over the common denominator
            source * denominator >= exact &&
            (source - (feeBps === 0 ? 1n : 3n)) * denominator < exact
          );
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
