import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { ERROR_STATUS } from '../../src/common/errors/error-codes';

/**
 * Building blocks of the fuzz suite: arbitraries for hostile request parts, and a raw HTTP client
 * that sends them byte for byte (fetch would normalise content types and refuse some bodies).
 */

const isWellFormed = (value: string) => (value as string & { isWellFormed(): boolean }).isWellFormed();

/** One character of a hostile string: mostly ordinary, often one of the characters that break things. */
export const nastyChar: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 4 },
  // Any code point, surrogates included (fast-check's 'binary' unit takes a second to set up).
  { arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\u202e',
      '\u2066',
      '\u2069',
      '\u200b',
      '\ufeff',
      '\u2028',
      '"',
      '\\',
      '%',
      '&',
      '=',
      '\n',
      '😀',
    ),
    weight: 3,
  },
);

export const nastyString = (maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: nastyChar, maxLength });

/**
 * JSON text to put where a value belongs: any JSON value (with hostile strings), numbers no
 * double holds, deep nesting, arrays and objects, long strings. Lone surrogates and NUL are
 * written as escapes, as a client's JSON encoder would.
 */
export const jsonFragment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: nastyChar }).map((v) => JSON.stringify(v)), weight: 5 },
  { arbitrary: nastyString().map((s) => JSON.stringify(s)), weight: 5 },
  {
    arbitrary: fc.constantFrom(
      '1e400',
      '-1e400',
      '1e-400',
      '-0',
      '9007199254740993',
      `1${'0'.repeat(400)}`,
      '0.1e1',
      'null',
      'true',
      '[]',
      '{}',
      '[[]]',
      '[{}]',
      '[null]',
      '""',
      '" "',
      '"\\u0000"',
      '"a\\u0000b"',
      '"\\ud800"',
      '"\\udc00x"',
      '"\\ud83d\\ude00"',
      '"\\u202eAcme"',
      '"\\u200b\\u200c"',
      '"2999-01-01"',
      '"0000-00-00"',
      '"NaN"',
    ),
    weight: 5,
  },
  { arbitrary: fc.integer({ min: 2, max: 2_500 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`), weight: 1 },
  { arbitrary: fc.integer({ min: 2, max: 1_500 }).map((n) => `${'{"a":'.repeat(n)}0${'}'.repeat(n)}`), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 5_000 }).map((n) => JSON.stringify('x'.repeat(n))), weight: 1 },
);

type Path = (string | number)[];

/** Every path into a JSON value, the value itself (`[]`) included. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => paths.push(...pathsOf(v, [...prefix, i])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) paths.push(...pathsOf(v, [...prefix, k]));
  return paths;
}

export type Mutation =
  | { op: 'replace'; path: Path; fragment: string }
  | { op: 'delete'; path: Path }
  | { op: 'wrapInArray'; path: Path }
  | { op: 'wrapInObject'; path: Path }
  | { op: 'addField'; path: Path; key: string; fragment: string };

export function mutationOf(base: unknown): fc.Arbitrary<Mutation> {
  const path = fc.constantFrom(...pathsOf(base));
  return fc.oneof(
    { arbitrary: fc.record({ op: fc.constant('replace' as const), path, fragment: jsonFragment }), weight: 6 },
    { arbitrary: fc.record({ op: fc.constant('delete' as const), path }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('wrapInArray' as const), path }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('wrapInObject' as const), path }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('addField' as const), path, key: nastyString(12), fragment: jsonFragment }), weight: 1 },
  );
}

const MARK = '\ue000';

/**
 * The JSON text of `base` after the mutations. Values are replaced by markers first and the
 * markers by raw JSON text at the end, so fragments that no JavaScript value can hold (1e400,
 * lone surrogates as escapes, nesting past the call stack) get through.
 */
export function applyMutations(base: unknown, mutations: Mutation[]): string {
  let root: unknown = structuredClone(base);
  const raw = new Map<string, string>();
  const marker = (text: string) => {
    const id = `${MARK}${raw.size}${MARK}`;
    raw.set(id, text);
    return id;
  };
  for (const mutation of mutations) {
    const parentPath = mutation.path.slice(0, -1);
    let parent: unknown = root;
    for (const key of parentPath) parent = typeof parent === 'object' && parent !== null ? (parent as Record<string | number, unknown>)[key] : undefined;
    const key = mutation.path[mutation.path.length - 1];
    const container = parent as Record<string | number, unknown>;
    const exists = mutation.path.length === 0 || (typeof parent === 'object' && parent !== null && key in container);
    if (!exists) continue;
    const current: unknown = mutation.path.length === 0 ? root : container[key];
    let next: unknown;
    switch (mutation.op) {
      case 'replace':
        next = marker(mutation.fragment);
        break;
      case 'wrapInArray':
        next = [current];
        break;
      case 'wrapInObject':
        next = { value: current };
        break;
      case 'addField':
        if (typeof current !== 'object' || current === null || Array.isArray(current)) continue;
        (current as Record<string, unknown>)[mutation.key] = marker(mutation.fragment);
        continue;
      case 'delete':
        if (mutation.path.length === 0) continue;
        if (Array.isArray(container)) container.splice(key as number, 1);
        else delete container[key];
        continue;
    }
    if (mutation.path.length === 0) root = next;
    else container[key] = next;
  }
  let text = JSON.stringify(root) ?? 'null';
  for (const [id, fragment] of raw) text = text.replace(JSON.stringify(id), () => fragment);
  return text;
}

/** A body the JSON parser must refuse without failing: any text, or bytes that are not even UTF-8. */
export const garbageBody: fc.Arbitrary<Buffer> = fc.oneof(
  nastyString(200).map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  fc
    .constantFrom('', ' ', 'null', '[]', '""', '0', '{', '{"a":1}}', '{"a":1,"a":2}', '\ufeff{}', '{"__proto__":{}}', '{"constructor":{"prototype":{}}}')
    .map((s) => Buffer.from(s)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)),
);

/** Content types a client might send; `null` sends none. */
export const oddContentType: fc.Arbitrary<string | null> = fc.constantFrom(
  null,
  '',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;',
  'application/json, text/plain',
  'application/jsonx',
  'application/json-patch+json',
  'application/problem+json',
  'text/json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  '*/*',
  'application/*',
  'json',
);

/** A query string (without `?`), percent-encoded or deliberately not. */
export const oddQuery: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'limit=1',
    'limit=0',
    'limit=-1',
    'limit=1e400',
    'limit=%00',
    'q=%00',
    'merchantReference=a%00b',
    'limit=1&limit=2',
    'cursor=',
    'cursor=%00',
    'cursor=pobo_%ff',
    'a=%ff',
    '%',
    '%%',
    '%zz=1',
    'x[y]=1',
    '__proto__[a]=1',
    'constructor=1',
    '&&&',
    '=',
    'limit',
  ),
  // The lists' own filters and the search's `q`, with hostile values: a NUL in one was a 500.
  fc
    .array(fc.tuple(fc.constantFrom('q', 'merchantReference', 'status', 'type', 'action', 'kybStatus', 'createdAfter'), nastyString(16)), {
      minLength: 1,
      maxLength: 2,
    })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${isWellFormed(v) ? encodeURIComponent(v) : '%00'}`).join('&')),
  fc.array(fc.tuple(nastyString(8), nastyString(16)), { maxLength: 3 }).map((pairs) =>
    pairs
      .filter(([k, v]) => isWellFormed(k) && isWellFormed(v))
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&'),
  ),
);

/** A path segment: encoded text of any kind, malformed escapes, dot segments, one too long for the router. */
export const oddPathSegment: fc.Arbitrary<string> = fc.oneof(
  nastyString(30)
    .filter((s) => s.length > 0 && isWellFormed(s))
    .map((s) => encodeURIComponent(s)),
  fc.constantFrom(
    '%00',
    '%ff',
    '%zz',
    '%',
    '%C0%80',
    '%ED%A0%80',
    '%EF%BF%BF',
    '.',
    '..',
    '%2e%2e',
    '%2F',
    'pobo_%00',
    'pobo_000000000000000000000000',
    'a'.repeat(150),
    `pobo_${'0'.repeat(200)}`,
  ),
);

export interface RawRequest {
  method: string;
  path: string;
  /** Several values: the header sent once per value. */
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

export function closeAgent(): void {
  agent.destroy();
}

/** Sends the request as it is, Content-Length aside. */
export function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) };
    const outgoing = request({ agent, host: url.hostname, port: url.port, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

/**
 * What every answer must be: never a 5xx, always an `X-Request-Id`, and errors in the contract's
 * shape with the header's id (`html` routes may answer errors as their HTML page instead).
 *
 * `replayed`: an Idempotency-Key replay (`Idempotent-Replayed: true`), whose body is the stored
 * bytes of the first answer: a replayed refusal carries the first request's `requestId`, while
 * `X-Request-Id` is the replay's own (as documented), so its body id need only be well formed.
 */
export function contractViolation(res: RawResponse, options: { html?: boolean; replayed?: boolean } = {}): string | null {
  if (res.status >= 500) return `status ${res.status}: ${res.text.slice(0, 300)}`;
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId)) return `X-Request-Id is ${String(requestId)}`;
  if (res.status < 400) return null;
  const contentType = String(res.headers['content-type'] ?? '');
  if (options.html && contentType.startsWith('text/html')) return res.text.startsWith('<!doctype html>') ? null : 'an HTML error that is not a page';
  if (!contentType.startsWith('application/json')) return `a ${res.status} answered as ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `a ${res.status} whose body is not JSON: ${res.text.slice(0, 200)}`;
  }
  const b = body as { message?: unknown; error?: { code?: unknown; details?: unknown }; requestId?: unknown };
  if (typeof b !== 'object' || b === null || Object.keys(b).sort().join() !== 'error,message,requestId') return `body keys: ${res.text.slice(0, 200)}`;
  if (typeof b.message !== 'string') return 'message is not a string';
  if (typeof b.error !== 'object' || b.error === null || Object.keys(b.error).sort().join() !== 'code,details') return `error: ${res.text.slice(0, 200)}`;
  const code = b.error.code;
  if (typeof code !== 'string' || !(code in ERROR_STATUS) || ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== res.status)
    return `code ${String(code)} with status ${res.status}`;
  const details = b.error.details;
  if (!Array.isArray(details)) return 'details is not an array';
  for (const d of details as unknown[]) {
    const detail = d as { field?: unknown; message?: unknown };
    if (typeof detail !== 'object' || detail === null || Object.keys(detail).sort().join() !== 'field,message') return `detail ${JSON.stringify(d)}`;
    if (typeof detail.field !== 'string' || typeof detail.message !== 'string') return `detail ${JSON.stringify(d)}`;
  }
  if (options.replayed ? typeof b.requestId !== 'string' || !REQUEST_ID.test(b.requestId) : b.requestId !== requestId)
    return `requestId ${String(b.requestId)} is not the header's ${requestId}`;
  return null;
}
