import { randomBytes } from 'node:crypto';

/** Public identifiers: a type prefix and 96 random bits, e.g. `pobo_3f9a…`. */
export function newId(prefix: 'mer' | 'key' | 'pobo' | 'agl' | 'kyba' | 'doc'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function isId(prefix: string, value: string): boolean {
  return value.length === prefix.length + 25 && value.startsWith(`${prefix}_`) && /^[0-9a-f]{24}$/.test(value.slice(prefix.length + 1));
}
