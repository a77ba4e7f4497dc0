import { inspect } from 'node:util';
import fc from 'fast-check';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { base58 } from '@scure/base';
import { HDKey as Bip32HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english';
import { HDKey as Slip10HDKey } from 'micro-ed25519-hdkey';
import { toChecksumAddress } from './checksum-address';
import { WalletDeriver } from './wallet.deriver';

/** Hardhat / Anvil / Foundry default development mnemonic. */
const HARDHAT = 'test test test test test test test test test test test junk';
/** BIP-39 all-zero-entropy 12-word vector. */
const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

const MAX_INDEX = 2 ** 31 - 1;
const indexArb = fc.integer({ min: 0, max: MAX_INDEX });
const EVM_FORMAT = /^0x[0-9a-fA-F]{40}$/;

describe('toChecksumAddress (EIP-55)', () => {
  // Test cases listed in EIP-55 itself (https://eips.ethereum.org/EIPS/eip-55).
  const eip55Vectors = [
    // all caps
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    // all lower
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    // normal
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(eip55Vectors)('checksums %s', (expected) => {
    const bare = expected.slice(2);
    expect(toChecksumAddress(bare.toLowerCase())).toBe(expected);
    expect(toChecksumAddress(bare.toUpperCase())).toBe(expected);
  });

  it('tolerates a 0x prefix', () => {
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  });

  it.each(['', '5aaeb6053f3e94c9b9a09f33669435e7ef1bea', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaedaa', 'g'.repeat(40), '0x'])(
    'rejects malformed input %p',
    (bad) => {
      expect(() => toChecksumAddress(bad)).toThrow();
    },
  );

  it('is idempotent and case-insensitive on its input (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const once = toChecksumAddress(bytesToHex(bytes));
        expect(once).toMatch(EVM_FORMAT);
        expect(once.toLowerCase()).toBe(`0x${bytesToHex(bytes)}`);
        expect(toChecksumAddress(once.slice(2))).toBe(once);
        expect(toChecksumAddress(once.slice(2).toUpperCase())).toBe(once);
      }),
    );
  });
});

describe('micro-ed25519-hdkey (dependency pin: SLIP-0010 ed25519 test vector 1)', () => {
  // https://github.com/satoshilabs/slips/blob/master/slip-0010.md, "Test vector 1 for ed25519".
  const master = Slip10HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'));

  it('derives chain m', () => {
    expect(bytesToHex(master.privateKey)).toBe('2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7');
    expect(bytesToHex(master.publicKey)).toBe('00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed');
  });

  it("derives chain m/0'/1'/2'/2'/1000000000'", () => {
    const node = master.derive("m/0'/1'/2'/2'/1000000000'");
    expect(bytesToHex(node.privateKey)).toBe('8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793');
    expect(bytesToHex(node.publicKey)).toBe('003c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a');
  });
});

describe('WalletDeriver', () => {
  let hardhat: WalletDeriver;
  let hardhatAgain: WalletDeriver;
  let abandon: WalletDeriver;

  beforeAll(() => {
    hardhat = new WalletDeriver(HARDHAT);
    hardhatAgain = new WalletDeriver(`  ${HARDHAT.replace(/ /g, '  ')}\n`);
    abandon = new WalletDeriver(ABANDON);
  });

  describe('published vectors', () => {
    // Hardhat / Anvil default accounts #0..#2 (m/44'/60'/0'/0/i of the "test ... junk" mnemonic).
    it.each([
      [0, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      [1, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
      [2, '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'],
    ])('EVM index %i of the Hardhat mnemonic is %s', (index, expected) => {
      expect(hardhat.derive(index).evm).toBe(expected);
    });

    it('EVM index 0 of the "abandon ... about" mnemonic is the widely published address', () => {
      expect(abandon.derive(0).evm).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    });

    it(`SVM index 0 of the "abandon ... about" mnemonic (m/44'/501'/0'/0') is the Phantom / Solana CLI address`, () => {
      // Cross-checked with an independent node:crypto SLIP-10 implementation.
      expect(abandon.derive(0).svm).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
    });

    it('normalises surrounding and repeated whitespace in the mnemonic', () => {
      expect(hardhatAgain.derive(0)).toEqual(hardhat.derive(0));
    });

    it('accepts the largest non-hardened index 2^31 - 1', () => {
      const { evm, svm } = hardhat.derive(MAX_INDEX);
      expect(evm).toMatch(EVM_FORMAT);
      expect(base58.decode(svm)).toHaveLength(32);
    });
  });

  describe('cross-check against the pure-JavaScript implementations (@scure/bip32, micro-ed25519-hdkey)', () => {
    const seed = mnemonicToSeedSync(HARDHAT);
    const evmParent = Bip32HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
    const svmRoot = Slip10HDKey.fromMasterSeed(seed);

    it('derives the same EVM and SVM addresses for any index (property)', () => {
      fc.assert(
        fc.property(indexArb, (index) => {
          const uncompressed = secp256k1.ProjectivePoint.fromHex(evmParent.deriveChild(index).publicKey!).toRawBytes(false);
          const evm = toChecksumAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(-20)));
          const svm = base58.encode(svmRoot.derive(`m/44'/501'/${index}'/0'`).publicKeyRaw);
          expect(hardhat.derive(index)).toEqual({ evm, svm });
        }),
        { numRuns: 30 },
      );
    });
  });

  describe('properties', () => {
    it('derive is deterministic (same instance, repeated calls, and an independent instance)', () => {
      fc.assert(
        fc.property(indexArb, (index) => {
          const first = hardhat.derive(index);
          expect(hardhat.derive(index)).toEqual(first);
          expect(hardhatAgain.derive(index)).toEqual(first);
        }),
        { numRuns: 50 },
      );
    });

    it('distinct indices give distinct EVM and SVM addresses', () => {
      fc.assert(
        fc.property(fc.uniqueArray(indexArb, { minLength: 2, maxLength: 8 }), (indices) => {
          const derived = indices.map((i) => hardhat.derive(i));
          expect(new Set(derived.map((d) => d.evm.toLowerCase())).size).toBe(indices.length);
          expect(new Set(derived.map((d) => d.svm)).size).toBe(indices.length);
        }),
        { numRuns: 20 },
      );
    });

    it('every EVM address is EIP-55 and round-trips through toChecksumAddress', () => {
      fc.assert(
        fc.property(indexArb, (index) => {
          const { evm } = hardhat.derive(index);
          expect(evm).toMatch(EVM_FORMAT);
          expect(toChecksumAddress(evm.slice(2).toLowerCase())).toBe(evm);
          expect(toChecksumAddress(evm.slice(2))).toBe(evm);
        }),
        { numRuns: 50 },
      );
    });

    it('every SVM address base58-decodes to a 32-byte public key and re-encodes identically', () => {
      fc.assert(
        fc.property(indexArb, (index) => {
          const { svm } = abandon.derive(index);
          const bytes = base58.decode(svm);
          expect(bytes).toHaveLength(32);
          expect(base58.encode(bytes)).toBe(svm);
        }),
        { numRuns: 50 },
      );
    });
  });

  describe('input validation', () => {
    it.each([
      ['wrong checksum', 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon'],
      ['wrong checksum', 'test test test test test test test test test test test test'],
      ['too few words', 'test test test test test test test test test test junk'],
      ['word not in the wordlist', 'test test test test test test test test test test test jnuk'],
      ['empty', ''],
    ])('rejects an invalid mnemonic (%s) without echoing any of its words', (_why, phrase) => {
      let error: unknown;
      try {
        new WalletDeriver(phrase);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message.toLowerCase();
      for (const word of phrase.split(/\s+/).filter(Boolean)) {
        expect(message).not.toContain(word.toLowerCase());
      }
    });

    it('gives the same error message for every invalid phrase (so it cannot depend on the input)', () => {
      const expected = (() => {
        try {
          new WalletDeriver('not a mnemonic');
        } catch (e) {
          return (e as Error).message;
        }
        throw new Error('expected the constructor to throw');
      })();
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...english), { minLength: 1, maxLength: 24 }), (words) => {
          const phrase = words.join(' ');
          try {
            new WalletDeriver(phrase);
            return true; // a random phrase can happen to be valid; nothing to check then
          } catch (e) {
            return (e as Error).message === expected;
          }
        }),
        { numRuns: 50 },
      );
    });

    it('rejects a non-string mnemonic', () => {
      expect(() => new WalletDeriver(undefined as unknown as string)).toThrow(TypeError);
    });

    it.each([-1, 1.5, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number])('derive rejects index %p with a RangeError', (index) => {
      expect(() => hardhat.derive(index)).toThrow(RangeError);
    });
  });

  describe('secrecy', () => {
    const leaks = (rendered: string, phrase: string): string[] => phrase.split(' ').filter((word) => rendered.toLowerCase().includes(word));

    it.each([
      ['Hardhat', HARDHAT],
      ['abandon', ABANDON],
    ])('JSON.stringify, util.inspect, String() and console-style rendering of the %s deriver leak no word', (_n, phrase) => {
      const deriver = new WalletDeriver(phrase);
      const renderings = [
        JSON.stringify(deriver),
        JSON.stringify({ deriver, nested: [deriver] }),
        inspect(deriver),
        inspect(deriver, { showHidden: true, depth: Infinity, getters: true }),
        inspect({ deriver }, { depth: Infinity }),
        String(deriver),
      ];
      for (const rendered of renderings) {
        expect(rendered).toContain('[WalletDeriver]');
        expect(leaks(rendered, phrase)).toEqual([]);
      }
      expect(Object.keys(deriver)).toEqual([]);
      expect(Object.getOwnPropertyNames(deriver)).toEqual([]);
      expect(Object.getOwnPropertySymbols(deriver)).toEqual([]);
    });
  });
});
