import { validateSync } from 'class-validator';
import { displayTextProblem, IsDisplayText } from './display-text.validator';

class Named {
  @IsDisplayText()
  name: unknown;
}

const validate = (name: unknown) => {
  const target = Object.assign(new Named(), { name });
  return validateSync(target).flatMap((e) => Object.values(e.constraints ?? {}));
};

describe('IsDisplayText', () => {
  it.each(['Acme Trading Ltd', 'شركة أكمي', 'Ọ̀yọ́ Foods & Logistics', '株式会社アクメ', '😀', 'A\u200fB', 'x\u200b'])('accepts %j', (name) => {
    expect(displayTextProblem(name)).toBeNull();
    expect(validate(name)).toEqual([]);
  });

  it.each([
    ['zero-width characters only', '\u200b\u200c\u200d\u2060\ufeff'],
    ['white space and separators only', ' \u00a0\u2028\u3000'],
    ['a combining mark alone', '\u0301'],
    ['Hangul fillers and a blank Braille pattern', '\u3164\u115f\u2800'],
    ['control characters', '\u0001\u007f'],
    ['the empty string', ''],
  ])('refuses %s as having nothing visible', (_name, name) => {
    expect(validate(name)).toEqual(['name must contain at least one visible character']);
  });

  it.each(['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'])('refuses the bidirectional control U+%s', (control) => {
    expect(validate(`Acme${control}Ltd`)).toEqual([
      'name must not contain bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069)',
    ]);
  });

  it('leaves other types to the type validators', () => {
    expect(validate(42)).toEqual([]);
    expect(validate(undefined)).toEqual([]);
  });
});
