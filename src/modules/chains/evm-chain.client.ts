import { BlockNotFoundError, createPublicClient, erc20Abi, getAddress, http, parseAbiItem, type Address, type PublicClient } from 'viem';
import type { EvmChainConfig } from '../../config/vault-chains.config';
import type { AddressSet, CallBudget, ChainClient, UsdcTransfer } from './chain-client';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** An EVM chain (ethereum, polygon, base) through `eth_*` JSON-RPC, with viem. */
export class EvmChainClient implements ChainClient {
  readonly name: EvmChainConfig['name'];
  private readonly client: PublicClient;
  private readonly usdc: Address;

  constructor(config: EvmChainConfig, budget: CallBudget) {
    this.name = config.name;
    this.usdc = getAddress(config.usdc);
    this.client = createPublicClient({ transport: http(config.rpcUrl, { timeout: budget.timeoutMs, retryCount: budget.retries }) });
  }

  /** The chain id the node answers: a URL pointing at another chain would send money there. */
  chainId(): Promise<number> {
    return this.client.getChainId();
  }

  head(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  async blockHash(block: bigint): Promise<string | null> {
    try {
      return (await this.client.getBlock({ blockNumber: block })).hash;
    } catch (err) {
      if (err instanceof BlockNotFoundError) return null;
      throw err;
    }
  }

  async usdcTransfersTo(recipients: AddressSet, from: bigint, to: bigint): Promise<UsdcTransfer[]> {
    // Every Transfer of the token in the range, matched here: a topic filter listing every vault
    // would outgrow what providers accept long before the vaults stop growing.
    const logs = await this.client.getLogs({ address: this.usdc, event: TRANSFER, fromBlock: from, toBlock: to });
    return logs
      .filter((log) => recipients.has(log.args.to!))
      .map((log) => ({
        txHash: log.transactionHash,
        index: log.logIndex,
        from: log.args.from!,
        to: log.args.to!,
        amount: log.args.value!,
        block: log.blockNumber,
        blockHash: log.blockHash,
      }));
  }

  usdcBalance(owner: string): Promise<bigint> {
    return this.client.readContract({ address: this.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(owner)] });
  }
}
