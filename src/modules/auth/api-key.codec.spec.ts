import fc from 'fast-check';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.codec';

describe('API key codec', () => {
  it('generates prefixed, high-entropy, distinct keys with a SHA-256 hash and a harmless hint', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey('mk_test'));
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
    for (const { key, hash, hint } of keys) {
      expect(key).toMatch(/^mk_test_[1-9A-HJ-NP-Za-km-z]{36,40}$/);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).toBe(hashApiKey(key));
      expect(hint).toBe(`mk_test_…${key.slice(-4)}`);
      expect(isWellFormedApiKey(key, 'mk_test')).toBe(true);
    }
  });

  it('refuses a key of the other environment', () => {
    expect(isWellFormedApiKey(generateApiKey('mk_live').key, 'mk_test')).toBe(false);
  });

  it('refuses any single-character typo by its checksum', () => {
    const { key } = generateApiKey('mk_test');
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    fc.assert(
      fc.property(fc.integer({ min: 8, max: key.length - 1 }), fc.constantFrom(...alphabet), (position, char) => {
        fc.pre(key[position] !== char);
        const typo = key.slice(0, position) + char + key.slice(position + 1);
        expect(isWellFormedApiKey(typo, 'mk_test')).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 120 }), (s) => !isWellFormedApiKey(`mk_test_${s}`, 'mk_test') || s.length >= 30));
    expect(isWellFormedApiKey('mk_test_', 'mk_test')).toBe(false);
    expect(isWellFormedApiKey(`mk_test_${'1'.repeat(200)}`, 'mk_test')).toBe(false);
  });
});
