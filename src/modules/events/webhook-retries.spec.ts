import { Webhook } from 'standardwebhooks';
import { claimPace, nextRetryAt } from './webhook-dispatcher.service';
import { retryAfterMs, signatureHeader } from './webhook-sender';

const SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const now = new Date('2026-11-27T12:00:00Z');
const waitOf = (at: Date | null) => (at === null ? null : at.getTime() - now.getTime());

describe('webhook retries', () => {
  it("waits each step of the schedule after the attempt before, within ±10 %, and gives up after the schedule's last", () => {
    for (let attempt = 1; attempt <= SCHEDULE.length; attempt++) {
      const step = SCHEDULE[attempt - 1];
      expect(waitOf(nextRetryAt(attempt, { statusCode: 500, retryAfterMs: null }, SCHEDULE, now, () => 0))).toBe(Math.round(step * 0.9));
      expect(waitOf(nextRetryAt(attempt, { statusCode: null, retryAfterMs: null }, SCHEDULE, now, () => 1))).toBe(Math.round(step * 1.1));
    }
    expect(nextRetryAt(SCHEDULE.length + 1, { statusCode: 500, retryAfterMs: null }, SCHEDULE, now)).toBeNull();
  });

  it('honours Retry-After on 429 and 503 only, within a second and ten hours', () => {
    expect(waitOf(nextRetryAt(1, { statusCode: 429, retryAfterMs: 120_000 }, SCHEDULE, now))).toBe(120_000);
    expect(waitOf(nextRetryAt(1, { statusCode: 503, retryAfterMs: 0 }, SCHEDULE, now))).toBe(1_000);
    expect(waitOf(nextRetryAt(1, { statusCode: 503, retryAfterMs: 86_400_000 }, SCHEDULE, now))).toBe(36_000_000);
    expect(waitOf(nextRetryAt(1, { statusCode: 500, retryAfterMs: 120_000 }, SCHEDULE, now, () => 0.5))).toBe(5_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 12:01:00 GMT', now.getTime())).toBe(60_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });

  it('signs with every secret, space-separated, each signature verifying with its own secret alone', () => {
    const secrets = [`whsec_${Buffer.alloc(32, 7).toString('base64')}`, `whsec_${Buffer.alloc(32, 9).toString('base64')}`];
    const body = '{"eventId":"evt_1","type":"webhook_endpoint.test"}';
    const header = signatureHeader(secrets, 'evt_1', now, body);
    const parts = header.split(' ');
    expect(parts).toHaveLength(2);
    const timestamp = String(Math.floor(Date.now() / 1000));
    for (const [i, secret] of secrets.entries()) {
      const signature = signatureHeader([secret], 'evt_1', new Date(Number(timestamp) * 1000), body);
      expect(signature.startsWith('v1,')).toBe(true);
      expect(() => new Webhook(secret).verify(body, { 'webhook-id': 'evt_1', 'webhook-timestamp': timestamp, 'webhook-signature': signature })).not.toThrow();
      expect(parts[i]).toBe(signatureHeader([secret], 'evt_1', now, body));
    }
  });
});

describe('webhook claim pace', () => {
  it('fills every free slot within milliseconds while the jobs keep up, and starts at most 80 attempts a second while jobs wait', () => {
    expect(claimPace(false, 64)).toEqual({ limit: 64, afterMs: 10 });
    expect(claimPace(false, 0).limit).toBe(0);
    const behind = claimPace(true, 64);
    expect((behind.limit * 1000) / behind.afterMs).toBeLessThanOrEqual(80);
    expect(behind.limit).toBeGreaterThan(0);
    expect(claimPace(true, 3).limit).toBe(3);
  });
});
