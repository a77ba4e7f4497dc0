import { createHmac, timingSafeEqual } from 'node:crypto';

/** Callbacks older or newer than this are refused: a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_S = 300;

/**
 * Checks `X-Rail-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`:
 * signed with our secret over these exact bytes, within five minutes of now.
 */
export function verifyRailSignature(secret: string, header: string | undefined, rawBody: string, nowMs = Date.now()): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !/^\d{1,12}$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(nowMs / 1000 - Number(t)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
