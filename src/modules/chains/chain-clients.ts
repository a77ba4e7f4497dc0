import type { AppConfig } from '../../config/app.config';
import type { ChainName } from '../../config/vault-chains.config';
import type { ChainClient } from './chain-client';

/** Nest injection token of the chains' clients, by name. */
export const CHAIN_CLIENTS = Symbol('CHAIN_CLIENTS');
export type ChainClients = ReadonlyMap<ChainName, ChainClient>;

/**
 * A client per configured chain, each call within the providers' budget (one retry), built on
 * first use: the adapters' libraries (viem, @solana/kit and the SPL programs, some 25 MB of heap)
 * load then, so the API, which checks addresses but never calls a chain, never loads them.
 */
export function createChainClients(config: Pick<AppConfig, 'vault' | 'providerTimeoutMs'>, measure: MeasureChain = (_chain, client) => client): ChainClients {
  let clients: ChainClients | undefined;
  const built = (): ChainClients => (clients ??= buildChainClients(config, measure));
  return new Proxy(new Map<ChainName, ChainClient>(), {
    get: (_empty, property) => {
      // Only the map's own methods build it: Nest looks at every provider's constructor and
      // lifecycle hooks (`onModuleInit`, …), and those lookups must not.
      if (property === 'constructor') return Map;
      if (!(property in Map.prototype)) return undefined;
      const map = built();
      const value: unknown = Reflect.get(map, property, map);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(map) : value;
    },
  });
}

/** Wraps a chain's client as it is built (its calls measured, see ChainsModule). */
export type MeasureChain = (chain: ChainName, client: ChainClient) => ChainClient;

function buildChainClients(config: Pick<AppConfig, 'vault' | 'providerTimeoutMs'>, measure: MeasureChain): ChainClients {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (see createChainClients) */
  const { EvmChainClient } = require('./evm-chain.client') as typeof import('./evm-chain.client');
  const { SolanaChainClient } = require('./solana-chain.client') as typeof import('./solana-chain.client');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const budget = { timeoutMs: config.providerTimeoutMs, retries: 1 };
  return new Map(
    config.vault.chains.map((chain): [ChainName, ChainClient] => [
      chain.name,
      measure(chain.name, chain.kind === 'evm' ? new EvmChainClient(chain, budget) : new SolanaChainClient(chain, budget)),
    ]),
  );
}
