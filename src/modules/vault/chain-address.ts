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
