import { decimalsOf, MAX_MAJOR_AMOUNT } from '../../common/money/money';

/**
 * Quotes for international payments, in exact decimal arithmetic: an exchange rate is an integer
 * count of 10^-scale units, amounts are integer minor units, and everything in between is BigInt,
 * so no floating-point value ever stands for money or a rate. The merchant pays in NGN.
 */

/** The currency a quote's source amount is in: the merchant's balance. */
export const SOURCE_CURRENCY = 'NGN';

/** The most decimal places a rate may have. */
export const MAX_RATE_DECIMALS = 8;

/** A positive decimal `units × 10^-scale`, exactly as written (trailing zeros keep their places). */
export interface Rate {
  units: bigint;
  scale: number;
}

/**
 * A rate written as plain decimal digits ("1650.123", "0.00061", "1500"), positive, with at most
 * `MAX_RATE_DECIMALS` decimal places; undefined for anything else (a sign, an exponent, a bare
 * point, white space, zero, more places).
 */
export function parseRate(rate: string): Rate | undefined {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(rate);
  if (!match) return undefined;
  const [, whole, fraction = ''] = match;
  const units = BigInt(whole + fraction);
  if (units === 0n) return undefined;
  return { units, scale: fraction.length };
}

export interface QuoteRequest {
  /** What the recipient is to receive, in minor units of `destinationCurrency`: a positive safe integer. */
  destinationMinor: number;
  destinationCurrency: string;
  /** NGN per one unit of the destination currency, as `parseRate` reads it. */
  rate: string;
  /** Flat fee in kobo: a non-negative safe integer. */
  fixedFeeMinor: number;
  /** Fee on the converted amount in basis points: an integer from 0 to 10000. */
  feeBps: number;
}

export interface Quote {
  /** The destination amount in kobo at the rate, rounded up. */
  convertedMinor: number;
  /** `fixedFeeMinor` plus `feeBps` of `convertedMinor`, rounded up. */
  feeMinor: number;
  /** What leaves the merchant's balance: `convertedMinor + feeMinor`. */
  sourceMinor: number;
}

/** The largest source amount a quote may come to: the money module's maximum, in kobo. */
const MAX_SOURCE_MINOR = minBigInt(BigInt(MAX_MAJOR_AMOUNT) * 10n ** BigInt(decimalsOf(SOURCE_CURRENCY)), BigInt(Number.MAX_SAFE_INTEGER));

/**
 * The NGN a merchant pays for the recipient to receive `destinationMinor`:
 * convertedMinor = ⌈destination × rate⌉ in kobo, feeMinor = fixedFeeMinor + ⌈convertedMinor × feeBps / 10000⌉,
 * sourceMinor = convertedMinor + feeMinor. Every rounding is up, so the merchant never pays less
 * than the exact price, and less than 1 kobo more (less than 3 with a percentage fee: one for the
 * conversion, carried into the fee, and one for the fee's own rounding).
 *
 * Returns undefined when `sourceMinor` would be over the money module's maximum amount (and so
 * over `Number.MAX_SAFE_INTEGER`): a destination amount that passed validation can get there at a
 * high rate, so the caller must answer it as a client error, and the return type makes it. Throws
 * on inputs that break the contract above (a rate `parseRate` refuses, a fractional or negative
 * amount or fee), which are programming errors: rates are to be parsed where they come in.
 */
export function quoteSourceAmount({ destinationMinor, destinationCurrency, rate, fixedFeeMinor, feeBps }: QuoteRequest): Quote | undefined {
  if (!Number.isSafeInteger(destinationMinor) || destinationMinor <= 0)
    throw new Error('fx: the destination amount must be a positive safe integer of minor units');
  if (!Number.isSafeInteger(fixedFeeMinor) || fixedFeeMinor < 0) throw new Error('fx: the fixed fee must be a non-negative safe integer of minor units');
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000) throw new Error('fx: the fee must be an integer number of basis points from 0 to 10000');
  const parsed = parseRate(rate);
  if (!parsed) throw new Error(`fx: ${JSON.stringify(rate)} is not a positive decimal rate with at most ${MAX_RATE_DECIMALS} decimal places`);

  // destinationMinor / 10^dd units × units / 10^scale NGN per unit × 10^sd kobo per NGN.
  const numerator = BigInt(destinationMinor) * parsed.units * 10n ** BigInt(decimalsOf(SOURCE_CURRENCY));
  const denominator = 10n ** BigInt(decimalsOf(destinationCurrency) + parsed.scale);
  const converted = ceilDiv(numerator, denominator);
  const fee = BigInt(fixedFeeMinor) + ceilDiv(converted * BigInt(feeBps), 10_000n);
  const source = converted + fee;
  if (source > MAX_SOURCE_MINOR) return undefined;
  return { convertedMinor: Number(converted), feeMinor: Number(fee), sourceMinor: Number(source) };
}

/** ⌈a / b⌉ for a ≥ 0 and b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
