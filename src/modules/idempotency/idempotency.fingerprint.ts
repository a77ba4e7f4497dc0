import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level and no whitespace: two bodies that differ only in
 * key order or formatting are the same request. Array order is kept, since it carries meaning.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same": method, route pattern, its path parameters and the body.
 * An absent body and `{}` are the same request (a confirmation may be sent either way).
 */
export function requestFingerprint(method: string, route: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonicalJson(params ?? {})}\n${canonicalJson(body ?? {})}`)
    .digest('hex');
}
