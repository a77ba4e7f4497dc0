import { isISO8601, ValidateBy, ValidationOptions } from 'class-validator';

/** A date and time with its zone, as the API answers them: `2026-11-20T09:30:00Z`, `2026-11-20T10:30:00.000+01:00`. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

export function IsTimestamp(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTimestamp',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && TIMESTAMP.test(value) && isISO8601(value, { strict: true }),
        defaultMessage: (args) => `${args?.property ?? 'value'} must be an ISO 8601 date and time with its zone, e.g. 2026-11-20T09:30:00Z`,
      },
    },
    options,
  );
}
