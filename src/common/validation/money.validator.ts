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
        defaultMessage: () =>
          `amount must be a positive number of ${currency} with at most ${decimalsOf(currency)} decimal places, at most ${MAX_MAJOR_AMOUNT}`,
      },
    },
    options,
  );
}

/**
 * `IsMoneyAmount` for a body whose currency is another of its fields (`currencyProperty`): the
 * decimal places allowed are that currency's.
 */
export function IsMoneyAmountIn(currencyProperty: string, options?: ValidationOptions): PropertyDecorator {
  const currencyOf = (object: object) => {
    const currency = (object as Record<string, unknown>)[currencyProperty];
    return typeof currency === 'string' ? currency : '';
  };
  return ValidateBy(
    {
      name: 'isMoneyAmountIn',
      constraints: [currencyProperty],
      validator: {
        validate: (value: unknown, args) => toMinorUnits(value, currencyOf(args!.object)) !== undefined,
        defaultMessage: (args) =>
          `amount must be a positive number of ${currencyOf(args!.object) || 'the currency'} with at most ${decimalsOf(currencyOf(args!.object))} decimal places, at most ${MAX_MAJOR_AMOUNT}`,
      },
    },
    options,
  );
}
