import { isAddress as isSolanaAddress } from '@solana/kit';
import { isAddress as isEvmAddress } from 'viem';
import type { ChainConfig, ChainName } from '../../config/vault-chains.config';

/**
 * Whether `address` is an address of `chain`: on the EVM chains 20 bytes of hex, whose EIP-55
 * checksum must hold when it is mixed-case (all lower or all upper case carries none); on Solana a
 * base58 32-byte public key.
 */
export function isChainAddress(chain: ChainName, address: string): boolean {
  if (chain === 'solana') return isSolanaAddress(address);
  const hex = address.slice(2);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  return isEvmAddress(address, { strict: !singleCase });
}

/** A business's vault address on `chain`: one EVM address for every EVM chain, its Solana one on Solana. */
export function vaultAddressOn(chain: Pick<ChainConfig, 'kind'>, business: { evmAddress: string; svmAddress: string }): string {
  return chain.kind === 'evm' ? business.evmAddress : business.svmAddress;
}
