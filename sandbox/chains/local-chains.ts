import type { FastifyInstance } from 'fastify';
import { DEV_WALLET_MNEMONIC } from '../../src/config/dev-secrets';
import { WalletDeriver } from '../../src/modules/wallets/wallet.deriver';
import { LocalEvmChain, startEvmChains } from './evm-chains';
import { createFaucetServer } from './faucet.server';
import { SolanaChain } from './solana-chain';
import { createSolanaRpcServer } from './solana-rpc.server';

/** 1,000 ETH (in wei) for the gas wallet on each EVM chain, 1,000 SOL (in lamports) for the fee payer. */
const PLATFORM_NATIVE = 10n ** 21n;
const PLATFORM_LAMPORTS = 10n ** 12n;

export interface LocalChainsOptions {
  host: string;
  /** A new block (slot) this often on every chain besides one per transaction; 0: only per transaction. */
  blockIntervalMs: number;
  /** The JSON-RPC ports (0: a free one). */
  ports: { ethereum: number; polygon: number; base: number; solana: number };
  faucetApiKey: string;
}

export interface LocalChains {
  evm: LocalEvmChain[];
  solana: SolanaChain;
  solanaRpcUrl: string;
  /** The faucet's HTTP server, not listening yet; closing it closes the chains too. */
  faucet: FastifyInstance;
}

/**
 * The local chains of development and tests: `ethereum`, `polygon` and `base` as Hardhat networks
 * (chain ids 31337–31339), `solana` as LiteSVM behind Solana's JSON-RPC, the sandbox USDC on each,
 * and the faucet in front of them.
 */
export async function startLocalChains(options: LocalChainsOptions): Promise<LocalChains> {
  const evm = await startEvmChains(
    [
      { name: 'ethereum', chainId: 31337, port: options.ports.ethereum },
      { name: 'polygon', chainId: 31338, port: options.ports.polygon },
      { name: 'base', chainId: 31339, port: options.ports.base },
    ],
    { host: options.host, blockIntervalMs: options.blockIntervalMs },
  );
  const solana = await SolanaChain.start();
  const solanaRpc = createSolanaRpcServer(solana);
  const solanaRpcUrl = await solanaRpc.listen({ host: options.host, port: options.ports.solana }).catch(async (err: unknown) => {
    await evm.close();
    throw err;
  });
  // The platform's gas wallet and fee payer of the development mnemonic start rich, as an operator
  // funds them in production: transfers out of the vaults need their native gas and fees.
  const platform = new WalletDeriver(DEV_WALLET_MNEMONIC).platformAddresses();
  for (const chain of evm.chains) await chain.provider.request({ method: 'hardhat_setBalance', params: [platform.evm, `0x${PLATFORM_NATIVE.toString(16)}`] });
  solana.airdrop(platform.svm as Parameters<SolanaChain['airdrop']>[0], PLATFORM_LAMPORTS);
  // Slots pass on their own as on a validator, so deposits gain confirmations.
  const ticker = options.blockIntervalMs > 0 ? setInterval(() => solana.tick(), options.blockIntervalMs) : undefined;
  const faucet = createFaucetServer({ apiKey: options.faucetApiKey, evm: evm.chains, solana: { chain: solana, rpcUrl: solanaRpcUrl } });
  faucet.addHook('onClose', async () => {
    clearInterval(ticker);
    await Promise.all([evm.close(), solanaRpc.close()]);
  });
  return { evm: evm.chains, solana, solanaRpcUrl, faucet };
}
