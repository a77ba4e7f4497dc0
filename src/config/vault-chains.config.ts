import { DEV_EVM_USDC_ADDRESS, DEV_SOLANA_USDC_MINT } from './dev-secrets';

export type EvmChainName = 'ethereum' | 'polygon' | 'base';
export type ChainName = EvmChainName | 'solana';
export const CHAIN_NAMES: readonly ChainName[] = ['ethereum', 'polygon', 'base', 'solana'];

interface ChainSettings {
  /** The chain's JSON-RPC endpoint: a node or a provider's URL (credentials may be in it: never logged). */
  rpcUrl: string;
  /** Confirmations (blocks, or slots on Solana) after which a deposit is credited. */
  confirmations: number;
  /** What a transfer out costs the business, in micro-USDC, reserved with the amount. */
  networkFeeMicro: bigint;
  /** A block explorer's page of a transaction, `{txHash}` standing for its hash; null where there is none (the local chains). */
  explorerTxUrl: string | null;
}

export interface EvmChainConfig extends ChainSettings {
  name: EvmChainName;
  kind: 'evm';
  chainId: number;
  /** The USDC ERC-20 contract. */
  usdc: string;
}

export interface SolanaChainConfig extends ChainSettings {
  name: 'solana';
  kind: 'svm';
  /** The USDC SPL mint. */
  usdcMint: string;
}

export type ChainConfig = EvmChainConfig | SolanaChainConfig;

/**
 * Each chain's defaults: production's are the public chains' (chain ids, Circle's USDC, usual
 * confirmation depths); development's are the local chains `npm start` runs, with a short depth.
 */
export const CHAIN_DEFAULTS: Record<
  ChainName,
  {
    chainId?: number;
    usdc: string;
    confirmations: number;
    networkFeeUsdc: string;
    explorerTxUrl: string;
    dev: { port: number; chainId?: number; usdc: string; confirmations: number };
  }
> = {
  ethereum: {
    chainId: 1,
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    confirmations: 12,
    networkFeeUsdc: '2',
    explorerTxUrl: 'https://etherscan.io/tx/{txHash}',
    dev: { port: 8545, chainId: 31337, usdc: DEV_EVM_USDC_ADDRESS, confirmations: 2 },
  },
  polygon: {
    chainId: 137,
    usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    confirmations: 64,
    networkFeeUsdc: '0.05',
    explorerTxUrl: 'https://polygonscan.com/tx/{txHash}',
    dev: { port: 8546, chainId: 31338, usdc: DEV_EVM_USDC_ADDRESS, confirmations: 2 },
  },
  base: {
    chainId: 8453,
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    confirmations: 12,
    networkFeeUsdc: '0.05',
    explorerTxUrl: 'https://basescan.org/tx/{txHash}',
    dev: { port: 8547, chainId: 31339, usdc: DEV_EVM_USDC_ADDRESS, confirmations: 2 },
  },
  solana: {
    usdc: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    confirmations: 32,
    networkFeeUsdc: '0.01',
    explorerTxUrl: 'https://explorer.solana.com/tx/{txHash}',
    dev: { port: 8899, usdc: DEV_SOLANA_USDC_MINT, confirmations: 2 },
  },
};

/** The configured chain of that name (every chain is configured: the config lists them all). */
export function chainNamed(chains: readonly ChainConfig[], name: ChainName): ChainConfig {
  const chain = chains.find((candidate) => candidate.name === name);
  if (!chain) throw new Error(`no configuration for the chain ${name}`);
  return chain;
}

/** The local chains' ids: a transaction signed for one of them is valid on no public chain. */
export const LOCAL_CHAIN_IDS: readonly number[] = [31337, 31338, 31339];

/** An amount of USDC (at most 6 decimals, as validated) in micro-USDC, exactly. */
export function microUsdc(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** The explorer's page of the transaction `txHash` on `chain`, where the chain has an explorer and the transaction a hash. */
export function explorerUrl(chains: readonly Pick<ChainConfig, 'name' | 'explorerTxUrl'>[], chain: string, txHash: string | null): string | null {
  const template = chains.find((candidate) => candidate.name === chain)?.explorerTxUrl;
  return template && txHash ? template.replace('{txHash}', encodeURIComponent(txHash)) : null;
}
