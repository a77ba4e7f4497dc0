import fc from 'fast-check';
import { ibanProblem, isValidAbaRoutingNumber, isValidBankCode, isValidBic, isValidIban, isValidOtherBankCode } from './recipient-bank';

/** `country` + the mod-97 check digits + `bban`, computed independently of ibantools (ISO 13616). */
function withCheckDigits(country: string, bban: string): string {
  const digits = [...`${bban}${country}00`].map((c) => parseInt(c, 36).toString()).join('');
  const check = 98n - (BigInt(digits) % 97n);
  return `${country}${check.toString().padStart(2, '0')}${bban}`;
}

describe('isValidBic', () => {
  it.each(['DEUTDEFF', 'DEUTDEFF500', 'NEDSZAJJXXX', 'CHASUS33', 'ZEIBNGLA', 'ABCDXKPR'])('accepts %s', (bic) => {
    expect(isValidBic(bic)).toBe(true);
  });

  it.each([
    ['lower case', 'deutdeff'],
    ['mixed case', 'DeutDEFF'],
    ['a country ISO 3166 does not assign', 'DEUTXXFF'],
    ['UK, which is not the ISO code for the United Kingdom', 'BARCUK22'],
    ['7 characters', 'DEUTDEF'],
    ['10 characters', 'DEUTDEFF50'],
    ['12 characters', 'DEUTDEFF5000'],
    ['a digit in the bank code', 'DEU1DEFF'],
    ['a digit in the country', 'DEUTD3FF'],
    ['punctuation', 'DEUTDEF!'],
    ['spaces', 'DEUT DEFF'],
    ['surrounding space', ' DEUTDEFF'],
    ['the empty string', ''],
  ])('refuses %s', (_why, bic) => {
    expect(isValidBic(bic)).toBe(false);
  });
});

describe('isValidIban', () => {
  it.each([
    'GB82WEST12345698765432',
    'DE89370400440532013000',
    'NL91ABNA0417164300',
    'CH9300762011623852957',
    'FR1420041010050500013M02606',
    'BE68539007547034',
    // Outside the SWIFT registry, published by the country (WAEMU).
    'SN08SN0100152000048500003035',
    'BJ66BJ0610100100144390000769',
  ])('accepts %s', (iban) => {
    expect(ibanProblem(iban)).toBeNull();
    expect(isValidIban(iban)).toBe(true);
  });

  it.each([
    ['wrong check digits', 'GB83WEST12345698765432', 'must be a valid IBAN (the check digits are wrong)'],
    ['a mistyped account digit', 'GB82WEST12345698765431', 'must be a valid IBAN (the check digits are wrong)'],
    ['two swapped digits', 'DE89370400440532031000', 'must be a valid IBAN (the check digits are wrong)'],
    ['too short for its country', 'GB82WEST1234569876543', 'must be a valid IBAN (GB IBANs have 22 characters, not 21)'],
    ['too long for its country', 'DE893704004405320130000', 'must be a valid IBAN (DE IBANs have 22 characters, not 23)'],
    ['an unknown country', 'XX82WEST12345698765432', 'must be a valid IBAN (XX is not a country that issues IBANs)'],
    ['a country without IBANs', 'US82WEST12345698765432', 'must be a valid IBAN (US is not a country that issues IBANs)'],
    ['letters where its country has digits', 'GB82WEST1234569876543X', 'must be a valid IBAN (the account part does not have the GB format)'],
  ])('refuses %s', (_why, iban, problem) => {
    expect(ibanProblem(iban)).toBe(problem);
    expect(isValidIban(iban)).toBe(false);
  });

  it('refuses right mod-97 check digits over wrong national ones', () => {
    // Belgian BBAN 539007547034: the last two digits are the account's mod-97 key; 35 is wrong.
    const iban = withCheckDigits('BE', '539007547035');
    expect(iban).toMatch(/^BE\d{2}539007547035$/);
    expect(ibanProblem(iban)).toBe('must be a valid IBAN (the BE national check digits are wrong)');
  });

  it.each(['gb82west12345698765432', 'GB82 WEST 1234 5698 7654 32', 'GB82-WEST-1234-5698-7654-32', ' GB82WEST12345698765432', 'GB8XWEST12345698765432', ''])(
    'refuses %j: only the electronic form, upper case without spaces, is accepted',
    (iban) => {
      expect(ibanProblem(iban)).toBe(
        'must be an IBAN in electronic form: two upper-case letters, two check digits, then upper-case letters and digits, without spaces',
      );
    },
  );

  it('agrees with an independent mod-97 on every GB account', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{4}\d{14}$/), fc.integer({ min: 0, max: 99 }), (bban, digits) => {
        const correct = withCheckDigits('GB', bban);
        const other = `GB${String(digits).padStart(2, '0')}${bban}`;
        return isValidIban(correct) && isValidIban(other) === (other === correct);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('isValidAbaRoutingNumber', () => {
  it.each(['021000021', '011000015', '026009593', '121000358', '322271627'])('accepts %s', (n) => {
    // e.g. 021000021: 3·(0+0+0) + 7·(2+0+2) + 1·(1+0+1) = 28 + 2 = 30
    expect(isValidAbaRoutingNumber(n)).toBe(true);
  });

  it.each([
    ['a wrong check digit', '021000022'],
    ['two swapped digits', '012000021'],
    ['8 digits', '02100002'],
    ['10 digits', '0210000210'],
    ['a letter', '02100002a'],
    ['a dash', '0210-0002'],
    ['all zeros, which passes the sum', '000000000'],
    ['the empty string', ''],
  ])('refuses %s', (_why, n) => {
    expect(isValidAbaRoutingNumber(n)).toBe(false);
  });

  it('gives every 8 leading digits exactly one check digit', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{8}$/).filter((s) => s !== '00000000'),
        (prefix) => {
          const valid = Array.from({ length: 10 }, (_, d) => `${prefix}${d}`).filter(isValidAbaRoutingNumber);
          return valid.length === 1;
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('isValidOtherBankCode', () => {
  it.each(['1', '40-30-15', '062-000', 'HDFC0000123', '102100099', 'a'.repeat(35), 'SORT CODE 40/30/15'])('accepts %j', (code) => {
    expect(isValidOtherBankCode(code)).toBe(true);
  });

  it.each(['', ' ', ' 403015', '403015 ', 'a'.repeat(36), 'Bänk', '40\t30', '40\n30', '银行'])('refuses %j', (code) => {
    expect(isValidOtherBankCode(code)).toBe(false);
  });
});

describe('isValidBankCode', () => {
  it('checks the code against the format its type names', () => {
    expect(isValidBankCode('swift', 'DEUTDEFF')).toBe(true);
    expect(isValidBankCode('swift', 'GB82WEST12345698765432')).toBe(false);
    expect(isValidBankCode('iban', 'GB82WEST12345698765432')).toBe(true);
    expect(isValidBankCode('iban', 'DEUTDEFF')).toBe(false);
    expect(isValidBankCode('routing_number', '021000021')).toBe(true);
    expect(isValidBankCode('routing_number', 'DEUTDEFF')).toBe(false);
    expect(isValidBankCode('other', 'DEUTDEFF')).toBe(true);
    expect(isValidBankCode('other', '')).toBe(false);
  });
});
