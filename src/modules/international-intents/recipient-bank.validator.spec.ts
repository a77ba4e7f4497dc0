import { IsString, validateSync } from 'class-validator';
import { bankCodeProblem, IsBankCodeFor } from './recipient-bank.validator';

class RecipientBank {
  bankCodeType: unknown;

  @IsString()
  @IsBankCodeFor('bankCodeType')
  bankCode: unknown;
}

const validate = (bankCodeType: unknown, bankCode: unknown) => {
  const target = Object.assign(new RecipientBank(), { bankCodeType, bankCode });
  return validateSync(target).flatMap((e) => Object.values(e.constraints ?? {}));
};

describe('IsBankCodeFor', () => {
  it.each([
    ['swift', 'DEUTDEFF'],
    ['swift', 'DEUTDEFF500'],
    ['iban', 'GB82WEST12345698765432'],
    ['iban', 'DE89370400440532013000'],
    ['routing_number', '021000021'],
    ['routing_number', '011000015'],
    ['other', '40-30-15'],
  ])('accepts the %s code %s', (type, code) => {
    expect(bankCodeProblem(type, code)).toBeNull();
    expect(validate(type, code)).toEqual([]);
  });

  it.each([
    [
      'swift',
      'DEUTXXFF',
      'bankCode must be a valid SWIFT/BIC code (ISO 9362): 8 or 11 upper-case letters and digits (bank, country, location, optional branch), e.g. DEUTDEFF or DEUTDEFF500',
    ],
    [
      'swift',
      'deutdeff',
      'bankCode must be a valid SWIFT/BIC code (ISO 9362): 8 or 11 upper-case letters and digits (bank, country, location, optional branch), e.g. DEUTDEFF or DEUTDEFF500',
    ],
    ['iban', 'GB83WEST12345698765432', 'bankCode must be a valid IBAN (the check digits are wrong)'],
    ['iban', 'GB82WEST1234569876543', 'bankCode must be a valid IBAN (GB IBANs have 22 characters, not 21)'],
    ['iban', 'XX82WEST12345698765432', 'bankCode must be a valid IBAN (XX is not a country that issues IBANs)'],
    [
      'iban',
      'GB82 WEST 1234 5698 7654 32',
      'bankCode must be an IBAN in electronic form: two upper-case letters, two check digits, then upper-case letters and digits, without spaces',
    ],
    ['routing_number', '021000022', 'bankCode must be a valid ABA routing number: 9 digits with a correct check digit'],
    ['routing_number', '21000021', 'bankCode must be a valid ABA routing number: 9 digits with a correct check digit'],
    ['other', '', 'bankCode must be 1 to 35 printable ASCII characters, not starting or ending with a space'],
    ['other', 'x'.repeat(36), 'bankCode must be 1 to 35 printable ASCII characters, not starting or ending with a space'],
  ])('refuses the %s code %j, saying which format was expected', (type, code, message) => {
    expect(validate(type, code)).toEqual([message]);
  });

  it('checks the code against its own type, not any format', () => {
    expect(validate('swift', 'GB82WEST12345698765432')).toHaveLength(1);
    expect(validate('iban', 'DEUTDEFF')).toHaveLength(1);
    expect(validate('routing_number', 'DEUTDEFF')).toHaveLength(1);
  });

  it.each([undefined, null, 'bic', 'SWIFT', 42])('refuses any code while the type is %j', (type) => {
    expect(validate(type, 'DEUTDEFF')).toEqual(['bankCode cannot be checked until bankCodeType is one of swift, iban, routing_number, other']);
  });

  it('names the sibling property it was given', () => {
    class Other {
      kind: unknown;

      @IsBankCodeFor('kind')
      code: unknown;
    }
    expect(validateSync(Object.assign(new Other(), { kind: 'iban', code: 'GB82WEST12345698765432' }))).toEqual([]);
    const errors = validateSync(Object.assign(new Other(), { kind: 'nope', code: 'GB82WEST12345698765432' }));
    expect(errors.flatMap((e) => Object.values(e.constraints ?? {}))).toEqual([
      'code cannot be checked until kind is one of swift, iban, routing_number, other',
    ]);
  });

  it('leaves other types to the type validators', () => {
    expect(validate('iban', 42)).toEqual(['bankCode must be a string']);
    expect(validate('iban', undefined)).toEqual(['bankCode must be a string']);
  });
});
