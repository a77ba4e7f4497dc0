import { encodeFunctionData, getContractAddress, type Address, type Hash } from 'viem';
import artifact from './sandbox-usdc.json';
import { DEVELOPMENT_CHAINS, usdcAddressOf } from './profiles';
import type { ContractArtifact } from './sandbox-usdc.compile';

/** An EIP-1193 provider: what Hardhat's network answers in process. */
interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

interface RpcServer {
  listen(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

export interface EvmChainSpec {
  /** The chain's name in the service (`ethereum`, `polygon`, `base`). */
  name: string;
  chainId: number;
  port: number;
}

export interface LocalEvmChain {
  name: string;
  chainId: number;
  rpcUrl: string;
  provider: Eip1193;
  /** The USDC contract, and its owner (the faucet). */
  usdc: Address;
  usdcOwner: Address;
}

/** Where the development USDC lives on every local EVM chain. */
export const DEV_USDC_ADDRESS: Address = usdcAddressOf(DEVELOPMENT_CHAINS);

const USDC = artifact as ContractArtifact;

/**
 * Local EVM chains in one process: one Hardhat network (EDR, the engine Hardhat runs) per chain,
 * each with its own chain id and JSON-RPC port, and the sandbox USDC deployed on each. Blocks are
 * mined for every transaction and, when `blockIntervalMs` is set, on that interval too (so
 * deposits gain confirmations in development); tests mine with `hardhat_mine` and reorganise with
 * `evm_snapshot` / `evm_revert`, as a real node's clients cannot.
 */
export async function startEvmChains(
  specs: EvmChainSpec[],
  options: { host: string; blockIntervalMs: number; usdcOwner?: Address },
): Promise<{
  chains: LocalEvmChain[];
  close(): Promise<void>;
}> {
  // Hardhat's internals, pinned to its exact 2.x version: a network and its JSON-RPC server per
  // chain, in this process, without a Hardhat project around them.
  /* eslint-disable @typescript-eslint/no-require-imports -- Hardhat 2 is CommonJS and these modules have no public entry point */
  const { resolveConfig } = require('hardhat/internal/core/config/config-resolution') as {
    resolveConfig: (path: string, config: unknown) => unknown;
  };
  const { createProvider } = require('hardhat/internal/core/providers/construction') as {
    createProvider: (config: unknown, network: string) => Promise<Eip1193>;
  };
  const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server') as {
    JsonRpcServer: new (config: { hostname: string; port: number; provider: Eip1193 }) => RpcServer;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const usdcOwner = options.usdcOwner ?? DEVELOPMENT_CHAINS.usdcOwner;
  const usdc = getContractAddress({ from: usdcOwner, nonce: 0n });
  const servers: RpcServer[] = [];
  const chains: LocalEvmChain[] = [];
  try {
    for (const spec of specs) {
      const config = resolveConfig(__filename, {
        // A reverted transaction is mined with status 0, as on a real chain (Hardhat throws by default).
        networks: { hardhat: { chainId: spec.chainId, mining: { auto: true, interval: options.blockIntervalMs }, throwOnTransactionFailures: false } },
      });
      const provider = await createProvider(config, 'hardhat');
      await deployUsdc(provider, usdcOwner, usdc);
      const server = new JsonRpcServer({ hostname: options.host, port: spec.port, provider });
      servers.push(server);
      const { port } = await server.listen();
      chains.push({ name: spec.name, chainId: spec.chainId, rpcUrl: `http://${options.host}:${port}`, provider, usdc, usdcOwner });
    }
  } catch (err) {
    await Promise.allSettled(servers.map((server) => server.close()));
    throw err;
  }
  return {
    chains,
    close: async () => {
      // Interval mining is a timer of the network's own: it would keep the process alive.
      await Promise.allSettled(chains.map((chain) => chain.provider.request({ method: 'evm_setIntervalMining', params: [0] })));
      await Promise.allSettled(servers.map((server) => server.close()));
    },
  };
}

async function deployUsdc(provider: Eip1193, owner: Address, usdc: Address): Promise<void> {
  await provider.request({ method: 'hardhat_impersonateAccount', params: [owner] });
  await provider.request({ method: 'hardhat_setBalance', params: [owner, `0x${(10n ** 21n).toString(16)}`] });
  await sendAndWait(provider, { from: owner, data: USDC.bytecode });
  const code = (await provider.request({ method: 'eth_getCode', params: [usdc, 'latest'] })) as string;
  if (code === '0x') throw new Error('the sandbox USDC was not deployed at its expected address');
}

/** Mints `amount` micro-USDC to `to` in a real transaction of the faucet (the USDC's owner). */
export function mintUsdc(chain: LocalEvmChain, to: Address, amount: bigint): Promise<Hash> {
  return sendAndWait(chain.provider, {
    from: chain.usdcOwner,
    to: chain.usdc,
    data: encodeFunctionData({ abi: USDC.abi, functionName: 'mint', args: [to, amount] }),
  });
}

/** Puts `account` on the USDC's blacklist: transfers from or to it revert from then on. */
export function blacklistOnUsdc(chain: LocalEvmChain, account: Address): Promise<Hash> {
  return sendAndWait(chain.provider, {
    from: chain.usdcOwner,
    to: chain.usdc,
    data: encodeFunctionData({ abi: USDC.abi, functionName: 'blacklist', args: [account] }),
  });
}

/** Sends as the (impersonated) USDC owner; the network mines it at once. */
async function sendAndWait(provider: Eip1193, tx: { from: Address; to?: Address; data: `0x${string}` }): Promise<Hash> {
  const hash = (await provider.request({ method: 'eth_sendTransaction', params: [tx] })) as Hash;
  const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string } | null;
  if (receipt?.status !== '0x1') throw new Error(`sandbox transaction ${hash} failed`);
  return hash;
}
