import { createHash, randomBytes } from 'node:crypto';

/**
 * The accounts module's bearer secrets (session cookies, e-mailed links): 256 random bits in
 * base64url, kept server-side only as their SHA-256.
 */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A token of that shape: anything else is never looked up (it may hold anything, NUL included). */
export function isSecretToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
