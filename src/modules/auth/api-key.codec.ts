import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2';
import { randomBytes } from '@noble/hashes/utils';
import { createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);

/** 192 bits from the CSPRNG: far beyond guessing, and short enough to paste. */
const SECRET_BYTES = 24;

export type ApiKeyPrefix = 'mk_test' | 'mk_live';

export interface GeneratedApiKey {
  key: string;
  hash: string;
  hint: string;
}

/**
 * Keys look like `mk_test_<base58check>`: the prefix says what it is (and lets secret scanners
 * find leaked keys); the base58check checksum lets a mistyped key be refused before any lookup.
 */
export function generateApiKey(prefix: ApiKeyPrefix): GeneratedApiKey {
  const key = `${prefix}_${base58check.encode(randomBytes(SECRET_BYTES))}`;
  return { key, hash: hashApiKey(key), hint: `${prefix}_…${key.slice(-4)}` };
}

/** True when the key has the expected prefix, length and a valid checksum. */
export function isWellFormedApiKey(key: string, prefix: ApiKeyPrefix): boolean {
  if (key.length > 80 || !key.startsWith(`${prefix}_`)) return false;
  try {
    return base58check.decode(key.slice(prefix.length + 1)).length === SECRET_BYTES;
  } catch {
    return false;
  }
}

/** SHA-256 (hex) of the whole key: what is stored, and what the in-process cache is keyed by. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
