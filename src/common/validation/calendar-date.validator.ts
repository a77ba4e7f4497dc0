import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** UTC+14 (Kiribati): the date there is the latest date that is already "today" somewhere. */
const FURTHEST_AHEAD_OF_UTC_MS = 14 * 60 * 60 * 1000;

/**
 * True unless `value` is a `YYYY-MM-DD` date after today. Today is taken in the time zone
 * furthest ahead, so that an event of today in the client's own zone is never refused.
 */
export function isNotFutureDate(value: string, now: Date = new Date()): boolean {
  if (!DATE.test(value)) return true;
  return value <= new Date(now.getTime() + FURTHEST_AHEAD_OF_UTC_MS).toISOString().slice(0, 10);
}

/**
 * A `YYYY-MM-DD` date that has happened (a birthday, an incorporation date). Other shapes are
 * left to the format validators, so a malformed date gets one message, not two.
 */
export function IsNotFutureDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotFutureDate',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isNotFutureDate(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'value'} must not be in the future`,
      },
    },
    options,
  );
}
