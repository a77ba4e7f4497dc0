import { envInt, envString, runSandbox, SANDBOX_HOST, startSandbox } from '../common/run';
import { DEFAULT_FAUCET_API_KEY } from './faucet.server';
import { startLocalChains } from './local-chains';
import { CHAINS_PROFILES } from './profiles';

/**
 * The local chains (see `startLocalChains`) on their development ports, and the faucet.
 * `node -r ts-node/register/transpile-only sandbox/chains/main.ts`
 * (or `node dist/sandbox/chains/main.js` after `npm run build`).
 * `SANDBOX_CHAINS_PROFILE=staging` starts chains the service accepts in production (other chain
 * ids, USDC and mint); `SANDBOX_GAS_WALLET` and `SANDBOX_FEE_PAYER` name the platform addresses
 * funded at start (the development mnemonic's by default).
 */
startSandbox('chains', async () => {
  const profileName = envString('SANDBOX_CHAINS_PROFILE', 'development');
  if (profileName !== 'development' && profileName !== 'staging') throw new Error('SANDBOX_CHAINS_PROFILE must be development or staging');
  const gasWallet = process.env.SANDBOX_GAS_WALLET;
  const feePayer = process.env.SANDBOX_FEE_PAYER;
  if ((gasWallet === undefined) !== (feePayer === undefined)) throw new Error('SANDBOX_GAS_WALLET and SANDBOX_FEE_PAYER go together');
  const chains = await startLocalChains({
    profile: CHAINS_PROFILES[profileName],
    platform: gasWallet !== undefined && feePayer !== undefined ? { evm: gasWallet, svm: feePayer } : undefined,
    host: SANDBOX_HOST,
    blockIntervalMs: envInt('SANDBOX_BLOCK_MS', 2000, 0, 3_600_000),
    ports: {
      ethereum: envInt('SANDBOX_ETHEREUM_RPC_PORT', 8545, 0, 65535),
      polygon: envInt('SANDBOX_POLYGON_RPC_PORT', 8546, 0, 65535),
      base: envInt('SANDBOX_BASE_RPC_PORT', 8547, 0, 65535),
      solana: envInt('SANDBOX_SOLANA_RPC_PORT', 8899, 0, 65535),
    },
    faucetApiKey: envString('CHAIN_FAUCET_API_KEY', DEFAULT_FAUCET_API_KEY),
  });
  const rpc = [...chains.evm.map((chain) => `${chain.name} ${chain.rpcUrl}`), `solana ${chains.solanaRpcUrl}`].join(', ');
  await runSandbox('chains', chains.faucet, envInt('SANDBOX_FAUCET_PORT', 8540, 0, 65535), `faucet; ${rpc}`);
});
