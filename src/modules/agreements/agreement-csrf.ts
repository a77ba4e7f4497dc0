import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AGREEMENT_PAGE_PATH } from './agreement.constants';

/**
 * Cross-site posting protection for the agreement form (double-submit cookie, bound to the link):
 * the page sets a random cookie and embeds HMAC(secret, cookie, token) as the hidden
 * `csrf_token`; the POST must carry both. A cross-site attacker can neither read the field nor
 * send the cookie (SameSite=Strict, HttpOnly), and a field from one link is useless on another.
 */
export const CSRF_COOKIE = 'agreement_csrf';

const RANDOM_VALUE = /^[A-Za-z0-9_-]{43}$/;

export function newCsrfCookieValue(): string {
  return randomBytes(32).toString('base64url');
}

export function isCsrfCookieValue(value: string | undefined): value is string {
  return value !== undefined && RANDOM_VALUE.test(value);
}

/** The value of one cookie in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function csrfCookieHeader(value: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${value}; Path=${AGREEMENT_PAGE_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The hidden field's value; domain-separated from the link-token hash made with the same secret. */
export function csrfFieldValue(secret: string, cookieValue: string, token: string): string {
  return createHmac('sha256', secret).update(`agreement-csrf\0${cookieValue}\0${token}`).digest('base64url');
}

export function csrfFieldMatches(secret: string, cookieValue: string | undefined, token: string, submitted: unknown): boolean {
  if (!isCsrfCookieValue(cookieValue) || typeof submitted !== 'string') return false;
  const expected = Buffer.from(csrfFieldValue(secret, cookieValue, token));
  const actual = Buffer.from(submitted);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
