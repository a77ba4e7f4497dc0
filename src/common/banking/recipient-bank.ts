import { countrySpecs, isValidBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/**
 * The bank codes a recipient abroad is paid by. Every check here takes the code exactly as it
 * will be stored and sent to the rail: upper case, no spaces. None of them normalises, because a
 * validator cannot change the value it passes: accepting "gb82 west …" would forward exactly that.
 * A request DTO that wants to be lenient trims and upper-cases before validating (`trimmedUpperCase`
 * in validation/transforms.ts); spaces inside an IBAN are refused rather than removed.
 */

/** How `bankCode` identifies the recipient's bank (and for `iban`, the account). */
export type BankCodeType = 'swift' | 'iban' | 'routing_number' | 'other';
export const BANK_CODE_TYPES: readonly BankCodeType[] = ['swift', 'iban', 'routing_number', 'other'];

/**
 * ISO 9362 BIC: 4 letters for the institution, the 2-letter ISO 3166-1 country, 2 letters or
 * digits for the location and, in the 11-character form, 3 for the branch ("XXX" is the head
 * office). Upper case only. The country must be one ISO 3166 assigns (ibantools' list, which has
 * Kosovo's XK as SWIFT uses it); test BICs (location ending in 0) are not told apart.
 */
export function isValidBic(code: string): boolean {
  return /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(code) && isValidBIC(code);
}

/** Why `iban` is not an IBAN we accept, or null when it is one. */
export function ibanProblem(iban: string): string | null {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return 'must be an IBAN in electronic form: two upper-case letters, two check digits, then upper-case letters and digits, without spaces';
  }
  const country = iban.slice(0, 2);
  const length = countrySpecs[country]?.chars;
  if (length === undefined) return `must be a valid IBAN (${country} is not a country that issues IBANs)`;
  if (iban.length !== length) return `must be a valid IBAN (${country} IBANs have ${length} characters, not ${iban.length})`;
  const { errorCodes } = validateIBAN(iban);
  if (errorCodes.length === 0) return null;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return `must be a valid IBAN (the account part does not have the ${country} format)`;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return 'must be a valid IBAN (the check digits are wrong)';
  if (errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) return `must be a valid IBAN (the ${country} national check digits are wrong)`;
  return 'must be a valid IBAN';
}

/**
 * An IBAN in electronic form (upper case, no spaces) with its country's length and account
 * format, the mod-97 check digits right and, for the countries that have them (BE, ES, FR, PL, …),
 * the national check digits right too. The per-country table is ibantools': the SWIFT IBAN
 * registry plus the IBAN formats some countries publish outside it, most of them in West and
 * Central Africa (SN, CI, CM, BJ, …), where a merchant in Nigeria may well pay.
 */
export function isValidIban(iban: string): boolean {
  return ibanProblem(iban) === null;
}

const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/**
 * A US ABA routing transit number: 9 digits whose weighted sum with 3,7,1,3,7,1,3,7,1 is a
 * multiple of 10. All zeros passes that sum but is no bank's number, so it is refused.
 */
export function isValidAbaRoutingNumber(n: string): boolean {
  if (!/^\d{9}$/.test(n) || n === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(n[i]) * ABA_WEIGHTS[i];
  return sum % 10 === 0;
}

/**
 * A bank code of a kind we cannot check (a sort code, a BSB, an IFSC, a CNAPS code, …): 1 to 35
 * printable ASCII characters (35 is the SWIFT field length such codes travel in, and non-ASCII
 * does not survive it), not starting or ending with a space.
 */
export function isValidOtherBankCode(code: string): boolean {
  return /^[\x21-\x7e](?:[\x20-\x7e]{0,33}[\x21-\x7e])?$/.test(code);
}

/** Whether `code` is valid for a bank code of `type`. */
export function isValidBankCode(type: BankCodeType, code: string): boolean {
  switch (type) {
    case 'swift':
      return isValidBic(code);
    case 'iban':
      return isValidIban(code);
    case 'routing_number':
      return isValidAbaRoutingNumber(code);
    case 'other':
      return isValidOtherBankCode(code);
  }
}
