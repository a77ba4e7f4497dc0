import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

const HEX_ADDRESS = /^[0-9a-fA-F]{40}$/;

/**
 * EIP-55 mixed-case checksum encoding of a 20-byte hex address.
 *
 * Accepts the 40 hex characters in any case (an optional `0x` prefix is tolerated) and returns the
 * `0x`-prefixed checksummed form. Any existing casing is ignored, not verified.
 */
export function toChecksumAddress(hexAddressWithout0x: string): string {
  if (typeof hexAddressWithout0x !== 'string') {
    throw new TypeError('Address must be a string of 40 hex characters');
  }
  const raw = hexAddressWithout0x.startsWith('0x') || hexAddressWithout0x.startsWith('0X') ? hexAddressWithout0x.slice(2) : hexAddressWithout0x;
  if (!HEX_ADDRESS.test(raw)) {
    throw new Error('Address must be exactly 40 hex characters (20 bytes)');
  }
  const lower = raw.toLowerCase();
  // keccak256 over the ASCII of the lowercase hex; nibble i >= 8 upper-cases character i.
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}
