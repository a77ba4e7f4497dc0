import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { BANK_CODE_TYPES, BankCodeType, ibanProblem, isValidAbaRoutingNumber, isValidBic, isValidOtherBankCode } from '../../common/banking/recipient-bank';

const isBankCodeType = (type: unknown): type is BankCodeType => typeof type === 'string' && (BANK_CODE_TYPES as readonly string[]).includes(type);

/**
 * Why `code` is not a bank code of `type`, or null when it is one. The text follows the property
 * name in the message, so it says which format was expected.
 */
export function bankCodeProblem(type: unknown, code: string, typeProperty = 'bankCodeType'): string | null {
  if (!isBankCodeType(type)) return `cannot be checked until ${typeProperty} is one of ${BANK_CODE_TYPES.join(', ')}`;
  switch (type) {
    case 'swift':
      return isValidBic(code)
        ? null
        : 'must be a valid SWIFT/BIC code (ISO 9362): 8 or 11 upper-case letters and digits (bank, country, location, optional branch), e.g. DEUTDEFF or DEUTDEFF500';
    case 'iban':
      return ibanProblem(code);
    case 'routing_number':
      return isValidAbaRoutingNumber(code) ? null : 'must be a valid ABA routing number: 9 digits with a correct check digit';
    case 'other':
      return isValidOtherBankCode(code) ? null : 'must be 1 to 35 printable ASCII characters, not starting or ending with a space';
  }
}

/**
 * A recipient's bank code, checked against the format its sibling property `typeProperty` names
 * (`swift` → BIC, `iban` → IBAN, `routing_number` → ABA routing number, `other` → 1–35 printable
 * characters); see banking/recipient-bank.ts. Fails when the sibling is not one of those types, so
 * a DTO that forgot `@IsIn(BANK_CODE_TYPES)` on it still accepts no unchecked code. Other types of
 * `bankCode` are left to `@IsString()`.
 */
export function IsBankCodeFor(typeProperty: string, options?: ValidationOptions): PropertyDecorator {
  const problem = (args: ValidationArguments) => bankCodeProblem((args.object as Record<string, unknown>)[typeProperty], args.value as string, typeProperty);
  return ValidateBy(
    {
      name: 'isBankCodeFor',
      constraints: [typeProperty],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => typeof value !== 'string' || (args !== undefined && problem(args) === null),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} ${args && typeof args.value === 'string' ? problem(args) : 'must be text'}`,
      },
    },
    options,
  );
}
