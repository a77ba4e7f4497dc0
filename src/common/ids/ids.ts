import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * CSPRNG bytes drawn from a pool refilled 4 KiB at a time, as `crypto.randomUUID` does: one
 * OpenSSL call per few hundred ids instead of one per id, which shows on the create path. Each
 * byte is handed out once; a refill allocates a new pool, so no returned buffer is ever rewritten.
 */
export function secureRandomBytes(size: number): Buffer {
  if (offset + size > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, size));
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + size);
  offset += size;
  return bytes;
}

/** Public identifiers: a type prefix and 96 random bits, e.g. `pobo_3f9a…`. */
export type IdPrefix =
  | 'mer'
  | 'key'
  | 'usr'
  | 'ses'
  | 'tok'
  | 'inv'
  | 'rc'
  | 'aud'
  | 'pobo'
  | 'agl'
  | 'kyba'
  | 'doc'
  | 'pi'
  | 'pay'
  | 'col'
  | 'wd'
  | 'btx'
  | 'evt'
  | 'ltx'
  | 'qt'
  | 'qo'
  | 'ipi'
  | 'vtx'
  | 'vtr'
  | 'we'
  | 'wha';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${secureRandomBytes(12).toString('hex')}`;
}

export function isId(prefix: string, value: string): boolean {
  return value.length === prefix.length + 25 && value.startsWith(`${prefix}_`) && /^[0-9a-f]{24}$/.test(value.slice(prefix.length + 1));
}
