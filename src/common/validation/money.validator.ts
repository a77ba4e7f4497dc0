import { ValidateBy, ValidationOptions } from 'class-validator';
import { decimalsOf, MAX_MAJOR_AMOUNT, toMinorUnits } from '../money/money';

/**
 * A positive amount in major units of `currency`, at most `MAX_MAJOR_AMOUNT`, with no more
 * decimal places than the currency has (2 for NGN).
 */
export function IsMoneyAmount(currency: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMoneyAmount',
      validator: {
        validate: (value: unknown) => toMinorUnits(value, currency) !== undefined,
        defaultMessage: () => `amount must be a positive number of ${currency} with at most ${decimalsOf(currency)} decimal places, at most ${MAX_MAJOR_AMOUNT}`,
      },
    },
    options,
  );
}
