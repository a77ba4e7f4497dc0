import fc from 'fast-check';
import { nastyChar, nastyString, oddPathSegment, oddQuery, RawResponse } from './fuzz';

/**
 * Building blocks of the money routes' fuzzing: amounts the API must refuse, hostile
 * Idempotency-Key headers with what the server must make of them, and ids and cursors that look
 * like the money routes' own.
 */

/**
 * True for what the API takes as an NGN amount: a positive number of at most 100 billion with at
 * most 2 decimal places in its shortest form. Only used to keep random doubles, and decimals
 * that parse to a valid amount, out of `invalidAmount`; every other case there is invalid by
 * construction.
 */
const acceptable = (value: number) => value > 0 && value <= 100_000_000_000 && /^\d+(\.\d{1,2})?$/.test(String(value));

/**
 * The JSON text of an amount the API must refuse with a 400 naming `amount`: zero, negatives,
 * more than 2 decimals, over the maximum, numbers no double holds (1e400 parses to Infinity,
 * 1e-400 to 0), strings (numeric-looking ones included), booleans, arrays and objects. Never
 * `null`: an absent optional amount (the test helper's) is valid.
 */
export const invalidAmount: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '0',
      '-0',
      '0.0',
      '0e5',
      '-1',
      '-0.01',
      '-5000',
      '0.001',
      '0.005',
      '0.009',
      '1.001',
      '12.345',
      '99.999',
      '5000.0000001',
      '1e21',
      '-1e21',
      '1e400',
      '-1e400',
      '1e-400',
      '1e999999999',
      '-1e999999999',
      '1E-7',
      '5e-324',
      '100000000000.01',
      '100000000001',
      '1e12',
      '9007199254740993',
      `1${'0'.repeat(400)}`,
      `0.${'0'.repeat(400)}1`,
      'true',
      'false',
      '[]',
      '{}',
      '[5000]',
      '[5000,5000]',
      '[[5000]]',
      '[null]',
      '{"amount":5000}',
      '{"value":5000,"currency":"NGN"}',
      '"5000"',
      '"5000.00"',
      '"50.5"',
      '" 5000 "',
      '"5e3"',
      '"0x1388"',
      '"NaN"',
      '"-NaN"',
      '"Infinity"',
      '"-Infinity"',
      '"undefined"',
      '""',
      '"\\u0000"',
      '"5000\\u0000"',
      '"\\ud800"',
      '"٥٠٠٠"',
      '"５０００"',
    ),
    weight: 6,
  },
  { arbitrary: fc.integer({ min: -1_000_000_000_000, max: 0 }).map(String), weight: 2 },
  { arbitrary: fc.integer({ min: 100_000_000_001, max: Number.MAX_SAFE_INTEGER }).map(String), weight: 1 },
  // Three or more decimals, the last not 0; not those that parse to the double of a valid amount
  // (536870912.0499999 is 536870912.05 once parsed: a double holds no finer at that size).
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 9_999 }))
      .map(([whole, cents, last, more]) => `${whole}.${String(cents).padStart(2, '0')}${more === 0 ? '' : String(more)}${last}`)
      .filter((text) => !acceptable(Number(text))),
    weight: 2,
  },
  {
    arbitrary: fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((v) => !acceptable(v))
      .map((v) => JSON.stringify(v)),
    weight: 2,
  },
  // Past the maximum (1e11) in exponent form.
  { arbitrary: fc.integer({ min: 12, max: 1_000 }).map((n) => `1e${n}`), weight: 1 },
  { arbitrary: nastyString().map((s) => JSON.stringify(s)), weight: 2 },
  {
    arbitrary: fc
      .jsonValue({ maxDepth: 2, stringUnit: nastyChar })
      .filter((v) => v !== null && typeof v !== 'number')
      .map((v) => JSON.stringify(v)),
    weight: 2,
  },
);

/**
 * What is wrong with the answer to a body whose amount was `amount` (JSON text from
 * `invalidAmount`; null: no amount), where an amount is required: anything but a 400 naming it.
 */
export function amountRefusalViolation(amount: string | null, res: RawResponse): string | null {
  const error = errorOf(res);
  // `amount`, or a path inside it (`amount[0]`, `amount.x`) when what is wrong is deeper.
  const namesAmount = error?.fields.some((field) => /^amount($|[.[])/.test(field));
  // A `__proto__` (or `constructor`) key is refused by the JSON parser itself, before validation.
  const poisoned = amount !== null && /"(__proto__|constructor)"/.test(amount) && error?.code === 'invalid_json';
  return res.status === 400 && ((error?.code === 'validation_failed' && namesAmount) || poisoned) ? null : `answered ${res.status} ${res.text.slice(0, 300)}`;
}

/**
 * An Idempotency-Key header as sent: `fresh` is a new valid key (made when the request is built),
 * `fixed` the same valid key for every request of every route (reuse with another body or on
 * another route), `sticky` one valid key per route and target (replays, stored refusals replayed,
 * 423 while a twin runs), `absent` no header, `values` these header lines (several: the header
 * repeated).
 */
export type KeyPlan = { kind: 'fresh' } | { kind: 'fixed' } | { kind: 'sticky' } | { kind: 'absent' } | { kind: 'values'; values: string[] };

/** What Node's HTTP client agrees to send in a header value (it throws on the rest). */
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

const ascii = (minLength: number, maxLength: number) => fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
const asciiOfLength = fc
  .oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom(15, 16, 17, 254, 255, 256), fc.integer({ min: 240, max: 270 }), fc.integer({ min: 0, max: 400 }))
  .chain((n) => ascii(n, n));

/** A header value: printable ASCII at and around the length limits, quoted, padded, with bytes beyond ASCII, very long. */
export const keyValue: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: asciiOfLength, weight: 6 },
    {
      // Quoted (one pair is stripped), unbalanced or doubled quotes.
      arbitrary: fc
        .tuple(ascii(10, 40), fc.constantFrom('"k"', '"k', 'k"', '""k""', "'k'", '"\\"k\\""', '" k "'))
        .map(([key, shape]) => shape.replace('k', key)),
      weight: 2,
    },
    // Bytes past ASCII: Latin-1 as a header carries it, or UTF-8 bytes of any character.
    {
      arbitrary: fc
        .tuple(
          ascii(8, 30),
          fc.oneof(
            fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
            nastyChar.map((c) => Buffer.from(c).toString('latin1')),
          ),
          ascii(8, 30),
        )
        .map(([a, odd, b]) => `${a}${odd}${b}`),
      weight: 2,
    },
    { arbitrary: fc.tuple(ascii(16, 40), fc.constantFrom(' ', '  ', '\t', ' \t ')).map(([key, pad]) => `${pad}${key}${pad}`), weight: 1 },
    { arbitrary: fc.tuple(ascii(8, 20), ascii(8, 20)).map(([a, b]) => `${a}\t${b}`), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '"',
        '""',
        '" "',
        `"${'a'.repeat(16)}"`,
        `"${'a'.repeat(255)}"`,
        `"${'a'.repeat(256)}"`,
        'k'.repeat(1_000),
        'k'.repeat(8_000),
      ),
      weight: 1,
    },
  )
  .filter((value) => SENDABLE.test(value));

export const keyPlan: fc.Arbitrary<KeyPlan> = fc.oneof(
  { arbitrary: fc.constant<KeyPlan>({ kind: 'fresh' }), weight: 4 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'fixed' }), weight: 1 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'sticky' }), weight: 2 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'absent' }), weight: 1 },
  { arbitrary: keyValue.map((value): KeyPlan => ({ kind: 'values', values: [value] })), weight: 6 },
  { arbitrary: fc.array(keyValue, { minLength: 2, maxLength: 3 }).map((values): KeyPlan => ({ kind: 'values', values })), weight: 2 },
);

/** One valid key for every request that draws it, on every route: reuse with another body or elsewhere (409), replays. */
export const FIXED_KEY = 'fuzz-fixed-key-0000001';

let serial = 0;
/** A value never made before in this run (Idempotency-Keys, merchant references): `prefix-00000042`. */
export const unique = (prefix: string) => `${prefix}-${String(serial++).padStart(8, '0')}`;

/** The Idempotency-Key header of a plan; `sticky` names the route and target its key is kept for. */
export function keyHeader(plan: KeyPlan, sticky = 'any'): Record<string, string | string[]> {
  switch (plan.kind) {
    case 'fresh':
      return { 'idempotency-key': unique('fuzz-key') };
    case 'fixed':
      return { 'idempotency-key': FIXED_KEY };
    case 'sticky':
      return { 'idempotency-key': `fuzz-sticky-key-${sticky}` };
    case 'absent':
      return {};
    case 'values':
      return { 'idempotency-key': plan.values.length === 1 ? plan.values[0] : plan.values };
  }
}

/** The key of a body's fuzzing: a new one mostly, so that what is valid gets through. */
export const bodyKey: fc.Arbitrary<KeyPlan> = fc.oneof(
  { arbitrary: fc.constant<KeyPlan>({ kind: 'fresh' }), weight: 12 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'fixed' }), weight: 1 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'absent' }), weight: 1 },
);

/** The key of a body's fuzzing where the key is optional: as often none as a new one. */
export const optionalBodyKey: fc.Arbitrary<KeyPlan> = fc.oneof(
  { arbitrary: fc.constant<KeyPlan>({ kind: 'fresh' }), weight: 6 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'absent' }), weight: 6 },
  { arbitrary: fc.constant<KeyPlan>({ kind: 'fixed' }), weight: 1 },
);

/**
 * What the server must make of these header lines: a repeated header is malformed, whatever its
 * values (never joined into one key); Node trims the whitespace around a value; one pair of double
 * quotes around the key is not part of it; a key is 16 to 255 printable ASCII characters.
 */
export function keyVerdict(values: string[]): 'absent' | 'valid' | 'invalid' {
  if (values.length === 0) return 'absent';
  if (values.length > 1) return 'invalid';
  const header = values[0].replace(/^[ \t]+|[ \t]+$/g, '');
  const key = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
  return key.length >= 16 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key) ? 'valid' : 'invalid';
}

/**
 * What is wrong with the answer to a POST sent with this key (null: nothing): a malformed key is
 * 400 `idempotency_key_invalid`, no key where one is `required` 400 `idempotency_key_required`,
 * and a well-formed key (or none where it is optional) a success, a 409 or a 423.
 */
export function keyAnswerViolation(key: KeyPlan, res: RawResponse, required: boolean): string | null {
  const verdict = key.kind === 'values' ? keyVerdict(key.values) : key.kind === 'absent' ? 'absent' : 'valid';
  const code = errorOf(res)?.code;
  const answer = `${res.status} ${code ?? ''}`;
  if (verdict === 'invalid') return res.status === 400 && code === 'idempotency_key_invalid' ? null : `a malformed key answered ${answer}`;
  if (verdict === 'absent' && required) return res.status === 400 && code === 'idempotency_key_required' ? null : `no key answered ${answer}`;
  return res.status < 300 || res.status === 409 || res.status === 423 ? null : `a well-formed key answered ${answer}`;
}

/** The id in a path: one of the merchant's own (`index` picks which), another merchant's, or a raw segment. */
export type IdTarget = { kind: 'own'; index: number } | { kind: 'foreign' } | { kind: 'raw'; segment: string };

export const idTarget = (segment: fc.Arbitrary<string>): fc.Arbitrary<IdTarget> =>
  fc.oneof(
    { arbitrary: fc.nat(1_000).map((index): IdTarget => ({ kind: 'own', index })), weight: 12 },
    { arbitrary: fc.constant<IdTarget>({ kind: 'foreign' }), weight: 1 },
    { arbitrary: segment.map((segment): IdTarget => ({ kind: 'raw', segment })), weight: 3 },
  );

/** The path segment of a target, given the merchant's own ids and another merchant's. */
export const segmentFor = (target: IdTarget, own: readonly string[], foreignId: string) =>
  target.kind === 'own' ? own[target.index % own.length] : target.kind === 'foreign' ? foreignId : target.segment;

/** Path ids of the money routes: the generic odd segments, and near misses of `pi_`/`wd_` ids. */
export const moneyPathSegment: fc.Arbitrary<string> = fc.oneof(
  oddPathSegment,
  fc.constantFrom(
    'pi_000000000000000000000000',
    'wd_000000000000000000000000',
    'btx_000000000000000000000000',
    'pi_',
    'wd_',
    'pi',
    'PI_0123456789abcdef01234567',
    'pi_0123456789ABCDEF01234567',
    'pi_0123456789abcdef0123456',
    'pi_0123456789abcdef012345678',
    'pi_0123456789abcdef0123456g',
    'pi_0123456789abcdef0123456%00',
    'wd_0123456789abcdef0123456%ff',
    'pi_0123456789abcdef01234567%20',
    '%70i_000000000000000000000000',
    'pi_000000000000000000000000%2Fconfirm',
    `pi_${'0'.repeat(500)}`,
    `wd_${'f'.repeat(5_000)}`,
    '-1',
    '0',
    '1e400',
    'null',
    'undefined',
    '__proto__',
    'constructor',
  ),
);

/** A money route's path id: mostly one of the merchant's own. */
export const moneyTarget: fc.Arbitrary<IdTarget> = idTarget(moneyPathSegment);

/** A list's query string (without `?`): the generic odd ones, and limits and cursors near valid. */
export const moneyQuery: fc.Arbitrary<string> = fc.oneof(
  oddQuery,
  fc.constantFrom(
    'limit=100',
    'limit=101',
    'limit=1.5',
    'limit=0x10',
    'limit=1e2',
    'limit=%201',
    'limit=NaN',
    'limit=Infinity',
    'limit=9007199254740993',
    'limit[]=1',
    'limit[a]=1',
    'limit=1&limit=',
    'cursor=pi_000000000000000000000000',
    'cursor=wd_000000000000000000000000',
    'cursor=btx_000000000000000000000000',
    'cursor=PI_000000000000000000000000',
    `cursor=${'a'.repeat(64)}`,
    `cursor=${'a'.repeat(65)}`,
    `cursor=${'a'.repeat(10_000)}`,
    'cursor[]=pi_000000000000000000000000',
    'cursor=pi_000000000000000000000000&cursor=pi_000000000000000000000001',
    'cursor=null',
    'cursor=%ff%fe',
    'currency=NGN',
    'status=succeeded',
  ),
);

/** The error code and the fields of the details of a JSON error answer, when it is one. */
export function errorOf(res: RawResponse): { code: string; fields: string[] } | undefined {
  try {
    const body = JSON.parse(res.text) as { error?: { code?: unknown; details?: { field?: unknown }[] } };
    if (typeof body.error?.code !== 'string') return undefined;
    return { code: body.error.code, fields: (body.error.details ?? []).map((d) => String(d.field)) };
  } catch {
    return undefined;
  }
}
