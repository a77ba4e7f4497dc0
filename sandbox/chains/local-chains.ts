import type { FastifyInstance } from 'fastify';
import { DEV_WALLET_MNEMONIC } from '../../src/config/dev-secrets';
import { WalletDeriver } from '../../src/modules/wallets/wallet.deriver';
import { LocalEvmChain, startEvmChains } from './evm-chains';
import { createFaucetServer } from './faucet.server';
import { DEVELOPMENT_CHAINS, type ChainsProfile } from './profiles';
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
  /** Chain ids and USDC: development's unless given. */
  profile?: ChainsProfile;
  /** The platform's gas wallet and fee payer, funded at start: development mnemonic's unless given. */
  platform?: { evm: string; svm: string };
}

export interface LocalChains {
  evm: LocalEvmChain[];
  solana: SolanaChain;
  solanaRpcUrl: string;
  /** The faucet's HTTP server, not listening yet; closing it closes the chains too. */
  faucet: FastifyInstance;
}

/**
 * The local chains: `ethereum`, `polygon` and `base` as Hardhat networks (development's chain ids
 * 31337–31339 unless the profile says otherwise), `solana` as LiteSVM behind Solana's JSON-RPC, the
 * sandbox USDC on each, and the faucet in front of them.
 */
export async function startLocalChains(options: LocalChainsOptions): Promise<LocalChains> {
  const profile = options.profile ?? DEVELOPMENT_CHAINS;
  const evm = await startEvmChains(
    (['ethereum', 'polygon', 'base'] as const).map((name) => ({ name, chainId: profile.chainIds[name], port: options.ports[name] })),
    { host: options.host, blockIntervalMs: options.blockIntervalMs, usdcOwner: profile.usdcOwner },
  );
  const solana = await SolanaChain.start(profile);
  const solanaRpc = createSolanaRpcServer(solana);
  const solanaRpcUrl = await solanaRpc.listen({ host: options.host, port: options.ports.solana }).catch(async (err: unknown) => {
    await evm.close();
    throw err;
  });
  // The platform's gas wallet and fee payer start rich, as an operator funds them in production:
  // transfers out of the vaults need their native gas and fees.
  const platform = options.platform ?? new WalletDeriver(DEV_WALLET_MNEMONIC).platformAddresses();
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
