import { DEFAULT_FAUCET_API_KEY } from '../../sandbox/chains/faucet.server';
import { LocalChains, startLocalChains } from '../../sandbox/chains/local-chains';
import type { ChainName } from '../../src/config/vault-chains.config';

export interface TestChains extends LocalChains {
  /** Points the app and worker at them: RPC URLs, the faucet, a short poll, `confirmations` per chain. */
  env: Record<string, string>;
  /** Mines `blocks` empty blocks (slots) on `chain`. */
  mine(chain: ChainName, blocks: number): Promise<void>;
  /** A point to come back to with `revert`: what is mined after it then leaves the chain, as a reorganisation does. */
  snapshot(chain: ChainName): Promise<string>;
  revert(chain: ChainName, snapshot: string): Promise<void>;
  close(): Promise<void>;
}

export interface TestChainsOptions {
  /** Blocks on their own this often besides one per transaction; 0 (the default): only when a test mines. */
  blockIntervalMs?: number;
  /** What a deposit waits for on every chain (default 3). */
  confirmations?: number;
}

/** The local chains `npm start` runs, in this process on free ports, with the development faucet key. */
export async function startTestChains(options: TestChainsOptions = {}): Promise<TestChains> {
  const chains = await startLocalChains({
    host: '127.0.0.1',
    blockIntervalMs: options.blockIntervalMs ?? 0,
    ports: { ethereum: 0, polygon: 0, base: 0, solana: 0 },
    faucetApiKey: DEFAULT_FAUCET_API_KEY,
  });
  const faucetUrl = await chains.faucet.listen({ host: '127.0.0.1', port: 0 });
  const evm = (name: ChainName) => chains.evm.find((chain) => chain.name === name)!;
  const confirmations = String(options.confirmations ?? 3);
  return {
    ...chains,
    env: {
      ...Object.fromEntries(chains.evm.flatMap((chain) => [[`${chain.name.toUpperCase()}_RPC_URL`, chain.rpcUrl]])),
      SOLANA_RPC_URL: chains.solanaRpcUrl,
      CHAIN_FAUCET_URL: faucetUrl,
      VAULT_POLL_INTERVAL_MS: '150',
      ...Object.fromEntries(['ETHEREUM', 'POLYGON', 'BASE', 'SOLANA'].map((chain) => [`${chain}_CONFIRMATIONS`, confirmations])),
    },
    mine: async (chain, blocks) => {
      if (chain === 'solana') for (let i = 0; i < blocks; i++) chains.solana.tick();
      else await evm(chain).provider.request({ method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`] });
    },
    snapshot: async (chain) =>
      chain === 'solana' ? String(chains.solana.snapshot()) : ((await evm(chain).provider.request({ method: 'evm_snapshot' })) as string),
    revert: async (chain, snapshot) => {
      if (chain === 'solana') chains.solana.revert(Number(snapshot));
      else await evm(chain).provider.request({ method: 'evm_revert', params: [snapshot] });
    },
    close: () => chains.faucet.close(),
  };
}
