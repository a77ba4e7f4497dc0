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

  it('accepts several v1 values (a rail rotating its secret) when any verifies, in either order', () => {
    const valid = sign(t, body).split(',')[1];
    const other = sign(t, body, 'the-rails-new-secret').split(',')[1];
    const zeros = `v1=${'0'.repeat(64)}`;
    expect(verifyRailSignature(SECRET, `t=${t},${valid},${zeros}`, body, now)).toBe(true);
    expect(verifyRailSignature(SECRET, `t=${t},${zeros},${valid}`, body, now)).toBe(true);
    expect(verifyRailSignature(SECRET, `t=${t},${other},${valid}`, body, now)).toBe(true);
    expect(verifyRailSignature(SECRET, `t=${t},${other},${zeros}`, body, now)).toBe(false);
  });

  it('refuses two different timestamps, a malformed v1 beside a valid one, and a flood of v1 values', () => {
    const valid = sign(t, body).split(',')[1];
    expect(verifyRailSignature(SECRET, `t=${t},t=${t - 1000},${valid}`, body, now)).toBe(false);
    expect(verifyRailSignature(SECRET, `t=${t},${valid},t=${t}`, body, now)).toBe(true);
    expect(verifyRailSignature(SECRET, `t=${t},${valid},v1=xyz`, body, now)).toBe(false);
    expect(verifyRailSignature(SECRET, `t=${t},${Array(9).fill(valid).join(',')}`, body, now)).toBe(false);
  });
});
