import type { AppConfig } from '../../config/app.config';
import type { ChainName } from '../../config/vault-chains.config';
import type { ChainClient } from './chain-client';
import { EvmChainClient } from './evm-chain.client';
import { SolanaChainClient } from './solana-chain.client';

/** Nest injection token of the chains' clients, by name. */
export const CHAIN_CLIENTS = Symbol('CHAIN_CLIENTS');
export type ChainClients = ReadonlyMap<ChainName, ChainClient>;

/** A client per configured chain, each call within the providers' budget (one retry). */
export function createChainClients(config: Pick<AppConfig, 'vault' | 'providerTimeoutMs'>): ChainClients {
  const budget = { timeoutMs: config.providerTimeoutMs, retries: 1 };
  return new Map(
    config.vault.chains.map((chain): [ChainName, ChainClient] => [
      chain.name,
      chain.kind === 'evm' ? new EvmChainClient(chain, budget) : new SolanaChainClient(chain, budget),
    ]),
  );
}
