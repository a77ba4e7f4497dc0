import { isTimeZone, ValidateBy, ValidationOptions } from 'class-validator';

/** An IANA name (`Africa/Lagos`, `UTC`, `Etc/GMT+1`): never an offset such as `+01:00`, which PostgreSQL reads the other way round. */
const NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;
/** Names already accepted: checking one builds an `Intl.DateTimeFormat`, tens of microseconds. There are a few hundred. */
const ACCEPTED = new Set<string>();
const MAX_ACCEPTED = 1000;

export function isTimeZoneName(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (ACCEPTED.has(value)) return true;
  if (!NAME.test(value) || !isTimeZone(value)) return false;
  if (ACCEPTED.size < MAX_ACCEPTED) ACCEPTED.add(value);
  return true;
}

/** An IANA time zone name the runtime knows (and so PostgreSQL, from the same database of zones). */
export function IsTimeZoneName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTimeZone',
      validator: {
        validate: isTimeZoneName,
        defaultMessage: () => '$property must be an IANA time zone name, e.g. Africa/Lagos',
      },
    },
    options,
  );
}
