export const MIN_KEY_LENGTH = 16;
export const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The key of an `Idempotency-Key` header, or undefined when it is malformed. A value in one pair
 * of double quotes (the structured-field string of the IETF draft) is the key without them.
 */
export function parseIdempotencyKey(header: string): string | undefined {
  const key = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
  if (key.length < MIN_KEY_LENGTH || key.length > MAX_KEY_LENGTH || !PRINTABLE_ASCII.test(key)) return undefined;
  return key;
}

/**
 * The request's one `Idempotency-Key` value: undefined without one, null when it came twice or
 * more (Node would join them into "a, b", a key nobody sent).
 */
export function idempotencyKeyHeader(rawHeaders: readonly string[]): string | null | undefined {
  let found: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() !== 'idempotency-key') continue;
    if (found !== undefined) return null;
    found = rawHeaders[i + 1];
  }
  return found;
}
