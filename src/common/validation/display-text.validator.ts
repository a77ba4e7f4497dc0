import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * Bidirectional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI).
 * In a name shown to other people they reorder the text around them, e.g. RLO makes
 * "Acme\u202Efdp.exe" read as "Acmeexe.pdf". The marks LRM/RLM/ALM reorder nothing and are allowed.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * A character that draws something: not white space, a control or format character, a
 * separator, a combining mark on its own, a default-ignorable code point (zero-width
 * characters, Hangul fillers) or the blank Braille pattern.
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Z}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Why `value` cannot be shown as a name, or null when it can. */
export function displayTextProblem(value: string): string | null {
  if (BIDI_CONTROL.test(value)) return 'must not contain bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069)';
  if (!VISIBLE.test(value)) return 'must contain at least one visible character';
  return null;
}

/**
 * Text that other people read as a name (a business name, on the agreement page among others):
 * at least one visible character and no bidirectional controls. Other types are left to
 * `@IsString()`.
 */
export function IsDisplayText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDisplayText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || displayTextProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} ${typeof args?.value === 'string' ? displayTextProblem(args.value) : 'must be text'}`,
      },
    },
    options,
  );
}
