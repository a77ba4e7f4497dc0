/**
 * NUBAN (the CBN's 10-digit Nigerian account number): a 9-digit serial and a check digit
 * computed over the 3-digit CBN bank code followed by the serial, with the weights
 * 3,7,3,3,7,3,3,7,3,3,7,3; check digit = (10 − sum mod 10) mod 10.
 */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/** The check digit of a 9-digit serial at the bank with this 3-digit code. */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  if (!/^\d{3}$/.test(bankCode) || !/^\d{9}$/.test(serial)) throw new Error('NUBAN: a 3-digit bank code and a 9-digit serial are required');
  const digits = bankCode + serial;
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(digits[i]) * WEIGHTS[i];
  return (10 - (sum % 10)) % 10;
}

/** True when `accountNumber` is 10 digits whose last is the check digit for `bankCode`. */
export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{3}$/.test(bankCode) || !/^\d{10}$/.test(accountNumber)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}

/** The account number of a 9-digit serial at the bank with this code. */
export function nubanFor(bankCode: string, serial: string): string {
  return `${serial}${nubanCheckDigit(bankCode, serial)}`;
}
