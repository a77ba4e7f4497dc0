const LOCAL_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** A date in the viewer's time zone, named, for people; its UTC value goes in the element's title. */
export function localTime(iso: string): string {
  return LOCAL_TIME.format(new Date(iso));
}

export function utcTime(iso: string): string {
  return `${new Date(iso).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/** An amount of money (a decimal string or number, as the API gives it) in the currency's own format. */
export function money(amount: string | number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(Number(amount));
}

/** `a - b` for amounts of one currency, computed in its minor units so no binary fraction leaks in (500.1 - 200.05 is 300.05). */
export function subtractMoney(a: number, b: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const scale = 10 ** digits;
  return ((Math.round(a * scale) - Math.round(b * scale)) / scale).toFixed(digits);
}

/** An amount of USDC (not an ISO 4217 currency, so not `money`): up to its 6 decimal places. */
export function usdc(amount: number): string {
  return `${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(amount)} USDC`;
}
