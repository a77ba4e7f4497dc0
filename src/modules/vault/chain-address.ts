import { isAddress as isSolanaAddress } from '@solana/addresses';
import { toChecksumAddress } from '../wallets';
import type { ChainConfig, ChainName } from '../../config/vault-chains.config';

/**
 * Whether `address` is an address of `chain`: on the EVM chains 20 bytes of hex, whose EIP-55
 * checksum must hold when it is mixed-case (all lower or all upper case carries none); on Solana a
 * base58 32-byte public key.
 */
export function isChainAddress(chain: ChainName, address: string): boolean {
  if (chain === 'solana') return isSolanaAddress(address);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.slice(2);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  // The wallets' own EIP-55 encoding (the one vault addresses are shown in), not a chain library's:
  // the API checks addresses and never calls a chain, so it never loads one.
  return singleCase || toChecksumAddress(hex) === address;
}

/** A business's vault address on `chain`: one EVM address for every EVM chain, its Solana one on Solana. */
export function vaultAddressOn(chain: Pick<ChainConfig, 'kind'>, business: { evmAddress: string; svmAddress: string }): string {
  return chain.kind === 'evm' ? business.evmAddress : business.svmAddress;
}

/**
 * Addresses that hold no key and so could never send USDC back: the zero address and the
 * precompiles (0x…01 to 0x…ff) on the EVM chains, Solana's system, token, associated-token and
 * memo programs, and on each chain its USDC contract or mint itself. A transfer there is money
 * burnt; refused like an address of another chain.
 */
const SOLANA_PROGRAMS = new Set([
  '11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
]);

export function isKeylessAddress(chain: ChainConfig, address: string): boolean {
  if (chain.kind === 'svm') return SOLANA_PROGRAMS.has(address) || address === chain.usdcMint;
  const lower = address.toLowerCase();
  return /^0x0{38}[0-9a-f]{2}$/.test(lower) || lower === chain.usdc.toLowerCase();
}

/** Whether two addresses of `chain` are the same account (EVM addresses compare without their checksum case). */
export function sameAddress(chain: Pick<ChainConfig, 'kind'>, a: string, b: string): boolean {
  return chain.kind === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;
}
