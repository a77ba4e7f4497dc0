import { createHmac } from 'node:crypto';
import { verifyRailSignature } from './rail-signature';

const SECRET = 'a-webhook-secret-for-tests';
const sign = (t: number, body: string, secret = SECRET) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

describe('verifyRailSignature', () => {
  const body = '{"id":"evt_1","type":"transfer.received","data":{}}';
  const now = 1_800_000_000_000;
  const t = now / 1000;

  it('accepts our secret over these exact bytes within five minutes', () => {
    expect(verifyRailSignature(SECRET, sign(t, body), body, now)).toBe(true);
    expect(verifyRailSignature(SECRET, sign(t - 299, body), body, now)).toBe(true);
    expect(verifyRailSignature(SECRET, sign(t + 299, body), body, now)).toBe(true);
  });

  it('refuses another secret, other bytes, an old or future timestamp and malformed headers', () => {
    expect(verifyRailSignature(SECRET, sign(t, body, 'another-secret'), body, now)).toBe(false);
    expect(verifyRailSignature(SECRET, sign(t, body), body.replace('evt_1', 'evt_2'), now)).toBe(false);
    expect(verifyRailSignature(SECRET, sign(t, body), `${body} `, now)).toBe(false);
    expect(verifyRailSignature(SECRET, sign(t - 301, body), body, now)).toBe(false);
    expect(verifyRailSignature(SECRET, sign(t + 301, body), body, now)).toBe(false);
    for (const header of [undefined, '', 't=abc,v1=00', `v1=${'0'.repeat(64)}`, `t=${t}`, `t=${t},v1=${'z'.repeat(64)}`]) {
      expect(verifyRailSignature(SECRET, header, body, now)).toBe(false);
    }
  });
});
