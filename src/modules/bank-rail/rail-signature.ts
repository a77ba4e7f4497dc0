import { createHmac, timingSafeEqual } from 'node:crypto';

/** Callbacks older or newer than this are refused: a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_S = 300;

/** More `v1` values than a rail rotating its secret ever sends: refused before any HMAC is compared. */
const MAX_SIGNATURES = 8;

/**
 * Checks `X-Rail-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`:
 * signed with our secret over these exact bytes, within five minutes of now. A rail rotating its
 * secret sends one `v1` per secret it signs with (as Stripe does): the header holds when any of
 * them verifies, whatever their order. One timestamp (repeated, it must not change); every `v1`
 * well-formed.
 */
export function verifyRailSignature(secret: string, header: string | undefined, rawBody: string, nowMs = Date.now()): boolean {
  if (!header) return false;
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't') timestamps.push(value ?? '');
    else if (name === 'v1') signatures.push(value ?? '');
  }
  const [t] = timestamps;
  if (t === undefined || timestamps.some((other) => other !== t) || !/^\d{1,12}$/.test(t)) return false;
  if (signatures.length === 0 || signatures.length > MAX_SIGNATURES || !signatures.every((v1) => /^[0-9a-f]{64}$/.test(v1))) return false;
  if (Math.abs(nowMs / 1000 - Number(t)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  // Every candidate is compared, so the time taken does not tell which one matched.
  return signatures.map((v1) => timingSafeEqual(expected, Buffer.from(v1, 'hex'))).includes(true);
}
