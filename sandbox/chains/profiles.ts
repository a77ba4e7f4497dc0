import { createHash } from 'node:crypto';
import { getAddressDecoder, type Address as SolanaAddress } from '@solana/kit';
import { getAddress, getContractAddress, keccak256, slice, stringToBytes, type Address } from 'viem';
import type { EvmChainName } from '../../src/config/vault-chains.config';

/**
 * What the local chains are: their chain ids, who owns their USDC and where it lives. Every key
 * here is public (derived from a fixed phrase), so nothing signed by it is worth anything.
 */
export interface ChainsProfile {
  name: 'development' | 'staging';
  chainIds: Record<EvmChainName, number>;
  /**
   * The USDC's owner on the EVM chains: it deploys the contract (so its address is the same on
   * every chain, and every start) and is the faucet. An address of no key, which the local nodes
   * let send as if unlocked.
   */
  usdcOwner: Address;
  /** The Solana USDC mint (an address of no key: a mint never signs). */
  solanaMint: SolanaAddress;
  /** The secret key of the mint's mint and freeze authority: the Solana faucet. */
  solanaAuthoritySeed: Uint8Array;
}

/** A fixed key from a label: the same every start, public. */
export function sandboxSeed(label: string): Uint8Array {
  return createHash('sha256').update(`merchant-payments sandbox: ${label}`).digest();
}

/** An EVM address nobody holds the key of: the last 20 bytes of keccak-256 of a phrase. */
function keylessAddress(phrase: string): Address {
  return getAddress(slice(keccak256(stringToBytes(phrase)), 12));
}

/**
 * Development's and the tests' chains (chain ids 31337–31339, which the service refuses in
 * production). Development's wallet mnemonic is Hardhat's, so Hardhat's accounts are the first
 * businesses' vaults: the USDC's owner is none of them, so a business's vault is never the faucet.
 */
export const DEVELOPMENT_CHAINS: ChainsProfile = {
  name: 'development',
  chainIds: { ethereum: 31337, polygon: 31338, base: 31339 },
  usdcOwner: '0xFE29a1264b73adae2bFF5B9AF36558bB3B1eBC35',
  solanaMint: getAddressDecoder().decode(sandboxSeed('usdc mint')),
  solanaAuthoritySeed: sandboxSeed('usdc authority'),
};

/**
 * Local chains the service accepts in production: chain ids, a USDC and a mint that are none of
 * development's (and no public chain's), for running the service as deployed, against local
 * chains (the bench does).
 */
export const STAGING_CHAINS: ChainsProfile = {
  name: 'staging',
  chainIds: { ethereum: 1_337_001, polygon: 1_337_137, base: 1_338_453 },
  usdcOwner: keylessAddress('merchant-payments sandbox: staging usdc owner'),
  solanaMint: getAddressDecoder().decode(sandboxSeed('staging usdc mint')),
  solanaAuthoritySeed: sandboxSeed('staging usdc authority'),
};

export const CHAINS_PROFILES = { development: DEVELOPMENT_CHAINS, staging: STAGING_CHAINS } as const;

/** Where a profile's USDC lives on every one of its EVM chains: its owner's first contract. */
export function usdcAddressOf(profile: ChainsProfile): Address {
  return getContractAddress({ from: profile.usdcOwner, nonce: 0n });
}

/** The service's settings for a profile's chains at these RPC URLs: what to set for it to use them. */
export function serviceEnvOf(profile: ChainsProfile, rpcUrls: Record<EvmChainName | 'solana', string>): Record<string, string> {
  const env: Record<string, string> = { SOLANA_RPC_URL: rpcUrls.solana, SOLANA_USDC_MINT: profile.solanaMint };
  for (const name of ['ethereum', 'polygon', 'base'] as const) {
    const upper = name.toUpperCase();
    env[`${upper}_RPC_URL`] = rpcUrls[name];
    env[`${upper}_CHAIN_ID`] = String(profile.chainIds[name]);
    env[`${upper}_USDC_ADDRESS`] = usdcAddressOf(profile);
  }
  return env;
}
