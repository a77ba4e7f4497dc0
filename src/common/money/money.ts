/**
 * Money crosses the API as a JSON number in major units (`1234.56` naira) and lives everywhere
 * else as an integer count of minor units (kobo). The conversion goes through the number's
 * shortest decimal form, which is exactly the literal the client wrote for any amount we accept
 * (at most 15 significant digits), so no floating-point arithmetic ever touches an amount.
 */

/** Decimal places per currency; fiat currencies we serve take 2, USDC 6. */
const DECIMALS: Record<string, number> = { USDC: 6 };
const FIAT_DECIMALS = 2;

/** The largest amount accepted, in major units. */
export const MAX_MAJOR_AMOUNT = 100_000_000_000;

export function decimalsOf(currency: string): number {
  return DECIMALS[currency] ?? FIAT_DECIMALS;
}

/**
 * Minor units of a positive major-unit amount, or undefined when it is not one: not a finite
 * number, zero or negative, over the maximum, or with more decimal places than the currency has.
 */
export function toMinorUnits(value: unknown, currency: string): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_MAJOR_AMOUNT) return undefined;
  const decimals = decimalsOf(currency);
  // Shortest round-trip form; exponent notation only appears for amounts far below a minor unit.
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!match) return undefined;
  const [, whole, fraction = ''] = match;
  if (fraction.length > decimals) return undefined;
  return Number(whole + fraction.padEnd(decimals, '0'));
}

/** The JSON number of `minor` minor units: built from its digits, never by division. */
export function toMajorUnits(minor: number, currency: string): number {
  if (!Number.isSafeInteger(minor)) throw new Error('money: minor units must be a safe integer');
  const decimals = decimalsOf(currency);
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0');
  const text = `${minor < 0 ? '-' : ''}${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`;
  return Number(text);
}

/** A bigint column as TypeORM and pg return it (a string), as a safe integer. */
export function minorFromColumn(value: string | number): number {
  const minor = Number(value);
  if (!Number.isSafeInteger(minor)) throw new Error('money: stored amount is not a safe integer');
  return minor;
}

/**
 * `minor` minor units of `currency`, written from the integer's digits (never through a
 * floating-point number) with the currency's decimal places: 247537525, NGN → "2,475,375.25 NGN".
 */
export function formatMoney(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new Error('money: minor units must be a safe integer');
  const decimals = decimalsOf(currency);
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${minor < 0 ? '-' : ''}${whole}${fraction} ${currency}`;
}
