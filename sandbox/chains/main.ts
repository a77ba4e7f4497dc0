import { envInt, envString, runSandbox, SANDBOX_HOST, startSandbox } from '../common/run';
import { startEvmChains } from './evm-chains';
import { createFaucetServer, DEFAULT_FAUCET_API_KEY } from './faucet.server';
import { SolanaChain } from './solana-chain';
import { createSolanaRpcServer } from './solana-rpc.server';

/**
 * The local chains of development and tests: `ethereum`, `polygon` and `base` as Hardhat networks
 * (JSON-RPC on their own ports, chain ids 31337–31339), `solana` as LiteSVM behind Solana's
 * JSON-RPC, the sandbox USDC on each, and the faucet.
 * `node -r ts-node/register/transpile-only sandbox/chains/main.ts`
 * (or `node dist/sandbox/chains/main.js` after `npm run build`).
 */
startSandbox('chains', async () => {
  const blockIntervalMs = envInt('SANDBOX_BLOCK_MS', 2000, 0, 3_600_000);
  const evm = await startEvmChains(
    [
      { name: 'ethereum', chainId: 31337, port: envInt('SANDBOX_ETHEREUM_RPC_PORT', 8545, 0, 65535) },
      { name: 'polygon', chainId: 31338, port: envInt('SANDBOX_POLYGON_RPC_PORT', 8546, 0, 65535) },
      { name: 'base', chainId: 31339, port: envInt('SANDBOX_BASE_RPC_PORT', 8547, 0, 65535) },
    ],
    { host: SANDBOX_HOST, blockIntervalMs },
  );
  const solana = await SolanaChain.start();
  const solanaRpc = createSolanaRpcServer(solana);
  const solanaUrl = await solanaRpc.listen({ host: SANDBOX_HOST, port: envInt('SANDBOX_SOLANA_RPC_PORT', 8899, 0, 65535) });
  // Slots pass on their own as on a validator, so deposits gain confirmations in development.
  const ticker = blockIntervalMs > 0 ? setInterval(() => solana.tick(), blockIntervalMs) : undefined;

  const app = createFaucetServer({
    apiKey: envString('CHAIN_FAUCET_API_KEY', DEFAULT_FAUCET_API_KEY),
    evm: evm.chains,
    solana: { chain: solana, rpcUrl: solanaUrl },
  });
  app.addHook('onClose', async () => {
    clearInterval(ticker);
    await Promise.all([evm.close(), solanaRpc.close()]);
  });
  const rpc = [...evm.chains.map((chain) => `${chain.name} ${chain.rpcUrl}`), `solana ${solanaUrl}`].join(', ');
  await runSandbox('chains', app, envInt('SANDBOX_FAUCET_PORT', 8540, 0, 65535), `faucet; ${rpc}`);
});
