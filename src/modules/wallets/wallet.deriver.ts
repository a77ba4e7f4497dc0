import { inspect } from 'node:util';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex } from '@noble/hashes/utils';
import { base58 } from '@scure/base';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english';
import { BIP32Factory, BIP32Interface } from 'bip32';
import { HARDENED_OFFSET, HDKey as Slip10HDKey } from 'micro-ed25519-hdkey';
import * as sodium from 'sodium-native';
import * as secp256k1 from 'tiny-secp256k1';
import { toChecksumAddress } from './checksum-address';

const bip32 = BIP32Factory(secp256k1);

/** BIP-44 external chain for Ethereum (coin type 60); addresses are its non-hardened children. */
export const EVM_PARENT_PATH = "m/44'/60'/0'/0";
/** BIP-44 prefix for Solana (coin type 501); addresses live at `m/44'/501'/{index}'/0'` (Phantom / Solana CLI). */
export const SVM_PARENT_PATH = "m/44'/501'";
/**
 * The platform's own keys, apart from every business's: the EVM gas wallet (account 1 of coin
 * type 60) and the Solana fee payer (the change branch of account 0, where businesses use 0').
 */
export const EVM_PLATFORM_PATH = "m/44'/60'/1'/0/0";
export const SVM_PLATFORM_PATH = "m/44'/501'/0'/1'";
/** Exclusive upper bound of a derivation index: everything at or above it is the hardened range. */
export const MAX_DERIVATION_INDEX = 2 ** 31;

const REDACTED = '[WalletDeriver]';

/** Whose key: a business's wallet index, or the platform's (gas wallet, fee payer). */
export type WalletKey = number | 'platform';

export interface DerivedAddresses {
  /** EIP-55 checksummed, `0x`-prefixed address at `m/44'/60'/0'/0/{index}`. */
  evm: string;
  /** Base58 ed25519 public key at `m/44'/501'/{index}'/0'`. */
  svm: string;
}

/**
 * Derives per-index EVM and Solana (SVM) deposit addresses from one BIP-39 mnemonic.
 *
 * The slow part (PBKDF2 seed stretching and the hardened prefix of each path) runs once in the
 * constructor; `derive()` only walks the last one or two levels. The mnemonic and seed are not
 * retained after construction (the seed buffer is zeroed, best effort): only the two parent nodes
 * are kept, in `#private` fields. Both hold private keys: ed25519 has no public derivation, and
 * for secp256k1 the private path costs one scalar addition where the public one (xpub) costs a
 * point addition and decompressions. The deriver lives in the wallet worker thread, which holds
 * the mnemonic anyway. The object renders as `'[WalletDeriver]'` under JSON.stringify,
 * util.inspect, console.log and String().
 *
 * The curve work, a scalar multiplication per address and curve, is what a create costs most: it
 * runs in libsecp256k1 (tiny-secp256k1, WebAssembly) and libsodium (sodium-native), several times
 * faster than the pure-JavaScript curves; the HD derivation around it is bip32 and
 * micro-ed25519-hdkey. Published vectors and a cross-check against the JavaScript implementations
 * pin the results.
 *
 * Not decorated: in Nest, register it with a factory provider, e.g.
 * `{ provide: WalletDeriver, useFactory: (c: ConfigService) => new WalletDeriver(c.getOrThrow(...)), inject: [ConfigService] }`.
 */
export class WalletDeriver {
  readonly #evmParent: BIP32Interface;
  readonly #svmParent: Slip10HDKey;
  readonly #evmPlatform: BIP32Interface;
  readonly #svmPlatform: Slip10HDKey;

  constructor(mnemonic: string) {
    if (typeof mnemonic !== 'string') {
      throw new TypeError('WalletDeriver: mnemonic must be a string');
    }
    // Tolerate surrounding/duplicated whitespace (e.g. a trailing newline from a secret file).
    const phrase = mnemonic.trim().split(/\s+/).join(' ');
    if (!validateMnemonic(phrase, english)) {
      // Never echo the input (not even a single word): it is the wallet's root secret.
      throw new Error('WalletDeriver: invalid BIP-39 mnemonic (expected 12, 15, 18, 21 or 24 English-wordlist words with a valid checksum)');
    }

    const seed = mnemonicToSeedSync(phrase);
    try {
      const evmRoot = bip32.fromSeed(seed);
      this.#evmParent = evmRoot.derivePath(EVM_PARENT_PATH);
      this.#evmPlatform = evmRoot.derivePath(EVM_PLATFORM_PATH);

      const svmRoot = Slip10HDKey.fromMasterSeed(seed);
      this.#svmParent = withFixedFingerprint(svmRoot.derive(SVM_PARENT_PATH));
      this.#svmPlatform = svmRoot.derive(SVM_PLATFORM_PATH);
      svmRoot.privateKey.fill(0);
      svmRoot.chainCode.fill(0);
    } finally {
      seed.fill(0);
    }
  }

  /** Addresses for `index`, an integer in [0, 2^31). Pure and deterministic for a given mnemonic. */
  derive(index: number): DerivedAddresses {
    checkIndex(index);
    return { evm: this.#evmAddress(index), svm: this.#svmAddress(index) };
  }

  /** The platform's addresses: its EVM gas wallet and its Solana fee payer. */
  platformAddresses(): DerivedAddresses {
    return { evm: evmAddressOf(Buffer.from(this.#evmPlatform.privateKey!)), svm: base58.encode(this.svmSecretKey('platform').subarray(32)) };
  }

  /**
   * The secp256k1 private key of `key`'s EVM address: for signing, in the wallet thread only,
   * where the caller zeroes it after use.
   */
  evmPrivateKey(key: WalletKey): Uint8Array {
    if (key === 'platform') return Buffer.from(this.#evmPlatform.privateKey!);
    checkIndex(key);
    return this.#evmParent.derive(key).privateKey!;
  }

  /** libsodium's 64-byte ed25519 secret key (seed and public key) of `key`'s Solana address; as `evmPrivateKey`. */
  svmSecretKey(key: WalletKey): Buffer {
    const leaf =
      key === 'platform'
        ? this.#svmPlatform
        : (() => {
            checkIndex(key);
            const account = withFixedFingerprint(this.#svmParent.deriveChild(HARDENED_OFFSET + key), 0);
            const child = account.deriveChild(HARDENED_OFFSET + 0);
            account.privateKey.fill(0);
            account.chainCode.fill(0);
            return child;
          })();
    const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
    const secretKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
    sodium.crypto_sign_seed_keypair(publicKey, secretKey, Buffer.from(leaf.privateKey.buffer, leaf.privateKey.byteOffset, leaf.privateKey.length));
    if (key !== 'platform') {
      leaf.privateKey.fill(0);
      leaf.chainCode.fill(0);
    }
    return secretKey;
  }

  #evmAddress(index: number): string {
    const child = this.#evmParent.derive(index);
    const address = evmAddressOf(child.privateKey!);
    child.privateKey!.fill(0);
    return address;
  }

  #svmAddress(index: number): string {
    // The SLIP-10 leaf key is an RFC 8032 seed: libsodium derives the same public key, faster.
    const secretKey = this.svmSecretKey(index);
    const address = base58.encode(secretKey.subarray(32));
    secretKey.fill(0);
    return address;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

function checkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_DERIVATION_INDEX) {
    throw new RangeError(`WalletDeriver: index must be an integer in [0, 2^31), got ${String(index)}`);
  }
}

/** The EIP-55 address of a secp256k1 private key: keccak-256 of the 64-byte X||Y of its public point, last 20 bytes. */
function evmAddressOf(privateKey: Uint8Array): string {
  // 65-byte SEC1 uncompressed point; drop the 0x04 tag.
  const uncompressed = secp256k1.pointFromScalar(privateKey, false);
  if (!uncompressed) throw new Error('WalletDeriver: EVM key has no public key');
  return toChecksumAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(-20)));
}

/**
 * micro-ed25519-hdkey computes a node's fingerprint (an ed25519 public key and a hash) every time
 * it derives a child, only to record it as the child's `parentFingerprint`: serialisation
 * metadata that plays no part in the derived keys or addresses. Pinning it (the parent's real
 * value once, or 0 for the throwaway intermediate node) leaves no ed25519 public-key
 * computation to the library at all: the one an address needs, the leaf's, comes from libsodium.
 */
function withFixedFingerprint(node: Slip10HDKey, fingerprint = node.fingerprint): Slip10HDKey {
  Object.defineProperty(node, 'fingerprint', { value: fingerprint });
  return node;
}
