import { isId, newId, secureRandomBytes } from './ids';

describe('secureRandomBytes', () => {
  it('hands out each pooled byte once: outputs across several pool refills never overlap', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const bytes = secureRandomBytes(12);
      expect(bytes).toHaveLength(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(2_000);
  });

  it('never rewrites a buffer it returned, even after the pool is refilled', () => {
    const first = secureRandomBytes(32);
    const copy = Buffer.from(first);
    for (let i = 0; i < 1_000; i++) secureRandomBytes(32);
    expect(first.equals(copy)).toBe(true);
  });

  it('serves sizes larger than the pool', () => {
    expect(secureRandomBytes(10_000)).toHaveLength(10_000);
  });
});

describe('newId / isId', () => {
  it('makes ids of the prefix and 24 hex characters that isId recognises', () => {
    const id = newId('pobo');
    expect(id).toMatch(/^pobo_[0-9a-f]{24}$/);
    expect(isId('pobo', id)).toBe(true);
    expect(isId('doc', id)).toBe(false);
    expect(isId('pobo', `${id}0`)).toBe(false);
  });
});
