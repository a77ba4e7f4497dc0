import fc from 'fast-check';
import { canonicalJson, requestFingerprint } from './idempotency.fingerprint';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops whitespace, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
    expect(canonicalJson([{ b: 1, a: 2 }])).toBe('[{"a":2,"b":1}]');
    expect(canonicalJson(JSON.parse('{ "amount" : 10.5 ,\n "merchantReference":"r" }'))).toBe('{"amount":10.5,"merchantReference":"r"}');
  });

  it('is the same for any key order of the same object, and parses back to it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(object));
        expect(JSON.parse(canonicalJson(object))).toEqual(JSON.parse(JSON.stringify(object)));
      }),
    );
  });
});

describe('requestFingerprint', () => {
  const route = '/api/merchant/payment-intents';
  it('differs by method, route, path parameter and body; not by key order', () => {
    const base = requestFingerprint('POST', route, {}, { amount: 10, merchantReference: 'a' });
    expect(requestFingerprint('POST', route, {}, { merchantReference: 'a', amount: 10 })).toBe(base);
    expect(requestFingerprint('POST', route, {}, { merchantReference: 'a', amount: 11 })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/merchant/withdrawals', {}, { merchantReference: 'a', amount: 10 })).not.toBe(base);
    const confirm = '/api/merchant/payment-intents/:paymentIntentId/confirm';
    expect(requestFingerprint('POST', confirm, { paymentIntentId: 'pi_1' }, undefined)).toBe(
      requestFingerprint('POST', confirm, { paymentIntentId: 'pi_1' }, {}),
    );
    expect(requestFingerprint('POST', confirm, { paymentIntentId: 'pi_1' }, {})).not.toBe(requestFingerprint('POST', confirm, { paymentIntentId: 'pi_2' }, {}));
  });
});
