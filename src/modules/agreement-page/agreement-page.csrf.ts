import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AGREEMENT_PAGE_PATH } from '../agreements';

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

/** The cookie as `@fastify/cookie` serialises it (parsing it is the library's too). */
export interface CsrfCookie {
  name: string;
  value: string;
  options: Parameters<FastifyInstance['serializeCookie']>[2];
}

export function csrfCookie(value: string, secure: boolean): CsrfCookie {
  return { name: CSRF_COOKIE, value, options: { path: AGREEMENT_PAGE_PATH, httpOnly: true, sameSite: 'strict', secure } };
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
