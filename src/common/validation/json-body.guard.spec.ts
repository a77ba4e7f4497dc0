import fc from 'fast-check';
import { checkJsonBody, MAX_JSON_DEPTH } from './json-body.guard';

const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

const details = (body: unknown) => checkJsonBody(body)?.details;
const isWellFormed = (value: string) => (value as string & { isWellFormed(): boolean }).isWellFormed();

/** Characters as they come, plus the ones this guard is about: NUL and both halves of a surrogate pair alone. */
const unit = fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));

describe('checkJsonBody', () => {
  it('passes ordinary bodies, including non-BMP characters written as surrogate pairs', () => {
    expect(checkJsonBody({ businessName: 'Acme 😀 Ltd', n: 1, ok: true, none: null, list: ['a', { b: 'c' }] })).toBeNull();
    expect(checkJsonBody(JSON.parse('{"name":"\\ud83d\\ude00"}'))).toBeNull();
    expect(checkJsonBody('plain')).toBeNull();
    expect(checkJsonBody(42)).toBeNull();
    expect(checkJsonBody(null)).toBeNull();
  });

  it('refuses a NUL anywhere, naming the field as the validation pipe does', () => {
    const error = checkJsonBody({ company: { name: 'Acme\u0000' }, company_files: [{}, {}, { file_type: 'x\u0000' }] });
    expect(error?.code).toBe('validation_failed');
    expect(error?.details).toEqual([
      { field: 'company.name', message: 'must not contain NUL characters' },
      { field: 'company_files[2].file_type', message: 'must not contain NUL characters' },
    ]);
    expect(details(['\u0000'])).toEqual([{ field: '[0]', message: 'must not contain NUL characters' }]);
    expect(details('\u0000')).toEqual([{ field: '', message: 'must not contain NUL characters' }]);
  });

  it('refuses lone surrogates, high or low, and a NUL or lone surrogate in a field name', () => {
    expect(details(JSON.parse('{"email":"\\ud800@b.example"}'))).toEqual([{ field: 'email', message: 'must be well-formed Unicode (no unpaired surrogates)' }]);
    expect(details({ a: ['x\udc00'] })?.[0].field).toBe('a[0]');
    expect(details({ 'a\u0000': 1 })).toEqual([{ field: 'a\u0000', message: 'field name must not contain NUL characters' }]);
    expect(details({ ['\ud800']: 1 })?.[0].message).toMatch(/^field name must be well-formed/);
  });

  it(`allows ${MAX_JSON_DEPTH} levels and refuses one more, naming where`, () => {
    expect(checkJsonBody(nested(MAX_JSON_DEPTH - 1))).toBeNull();
    const tooDeep = details({ businessName: nested(MAX_JSON_DEPTH) });
    expect(tooDeep).toHaveLength(1);
    expect(tooDeep?.[0].message).toBe(`is nested more than ${MAX_JSON_DEPTH} levels deep`);
    // The path of the first container past the limit: 32 steps down from the body.
    expect(tooDeep?.[0].field).toMatch(/^businessName(\.a\[0\])+\.a$/);
    expect(tooDeep?.[0].field.split(/\.|\[/)).toHaveLength(MAX_JSON_DEPTH);
  });

  it('walks nesting far past the call stack without recursing, and stops at the first levels too deep', () => {
    const deep = JSON.parse(`{"businessName":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect(details(deep)).toHaveLength(1);
  });

  it('reports at most 20 problems', () => {
    expect(details(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(20);
  });

  it('refuses exactly the bodies holding a NUL, a lone surrogate or too deep nesting (property)', () => {
    const bad = (value: unknown, depth: number): boolean => {
      if (typeof value === 'string') return value.includes('\0') || !isWellFormed(value);
      if (typeof value !== 'object' || value === null) return false;
      if (depth > MAX_JSON_DEPTH) return true;
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
      return entries.some(([k, v]) => (!Array.isArray(value) && bad(k, depth)) || bad(v, depth + 1));
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 40, depthSize: 'large', stringUnit: unit }), fc.string({ unit }), (value, extra) => {
        for (const body of [value, { value, extra }]) expect(checkJsonBody(body) !== null).toBe(bad(body, 1));
      }),
      { numRuns: 500 },
    );
  });
});
