import {
  BlockNotFoundError,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  parseAbiItem,
  parseTransaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { KeyedSerializer } from '../../common/concurrency/keyed-serializer';
import type { EvmChainConfig } from '../../config/vault-chains.config';
import type {
  AddressSet,
  CallBudget,
  ChainClient,
  Sender,
  SignedTransfer,
  TransferOrder,
  TransferOutcome,
  TransferSigning,
  UsdcTransfer,
} from './chain-client';

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** Gas of an ERC-20 `transfer` with room to spare (USDC's, blacklist check included, uses about 60,000). */
const TRANSFER_GAS = 100_000n;
const TOP_UP_GAS = 21_000n;
/** A vault is topped up to this many transfers' worth of gas at the fees of the moment. */
const TOP_UP_TRANSFERS = 10n;
/** What a signed transaction may pay per gas: twice the estimate, so a rebroadcast still fits a rising base fee. */
const FEE_HEADROOM = 2n;

/** An EVM chain (ethereum, polygon, base) through `eth_*` JSON-RPC, with viem. */
export class EvmChainClient implements ChainClient {
  readonly name: EvmChainConfig['name'];
  private readonly client: PublicClient;
  private readonly usdc: Address;
  private readonly chainIdValue: number;
  /** The gas wallet's transactions of this process, one at a time: each takes the next nonce. */
  private readonly gasWallet = new KeyedSerializer();

  constructor(config: EvmChainConfig, budget: CallBudget) {
    this.name = config.name;
    this.chainIdValue = config.chainId;
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

  nativeBalance(owner: string): Promise<bigint> {
    return this.client.getBalance({ address: getAddress(owner) });
  }

  usdcBalance(owner: string): Promise<bigint> {
    return this.client.readContract({ address: this.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(owner)] });
  }

  async prepareSender(sender: Sender, signing: TransferSigning): Promise<bigint> {
    const vault = getAddress(sender.address);
    const fees = await this.fees();
    await this.ensureGas(vault, TRANSFER_GAS * fees.maxFeePerGas, signing, fees);
    return BigInt(await this.client.getTransactionCount({ address: vault, blockTag: 'pending' }));
  }

  /**
   * The vault holds at least `needed` wei, topped up from the platform's gas wallet (with room
   * for `TOP_UP_TRANSFERS` more transfers at today's fees) when it does not. One top-up at a time
   * in this process: each takes the gas wallet's next nonce.
   */
  private async ensureGas(vault: Address, needed: bigint, signing: TransferSigning, known?: Fees): Promise<void> {
    if ((await this.client.getBalance({ address: vault })) >= needed) return;
    await this.gasWallet.run('gas', async () => {
      // Checked again in the queue: a transfer before this one may have topped the vault up.
      if ((await this.client.getBalance({ address: vault })) >= needed) return;
      // The fees of the moment, asked for only when a top-up is due (a broadcast mostly needs none).
      const fees = known ?? (await this.fees());
      const gasWallet = getAddress((await signing.platformAddresses()).evm);
      const raw = await signing.signEvmTransaction('platform', {
        type: 'eip1559',
        chainId: this.chainIdValue,
        nonce: await this.client.getTransactionCount({ address: gasWallet, blockTag: 'pending' }),
        to: vault,
        value: needed + TRANSFER_GAS * fees.maxFeePerGas * TOP_UP_TRANSFERS,
        gas: TOP_UP_GAS,
        ...fees,
      });
      const hash = await this.client.sendRawTransaction({ serializedTransaction: raw });
      const receipt = await this.client.waitForTransactionReceipt({ hash, pollingInterval: 250, timeout: 60_000 });
      if (receipt.status !== 'success') throw new Error(`${this.name}: the gas top-up of a vault reverted`);
    });
  }

  async signUsdcTransfer({ sender, to, amount, nonce }: TransferOrder, signing: TransferSigning): Promise<SignedTransfer> {
    if (nonce === null) throw new Error(`${this.name}: a transfer needs its nonce`);
    const raw = await signing.signEvmTransaction(sender.key, {
      type: 'eip1559',
      chainId: this.chainIdValue,
      nonce: Number(nonce),
      to: this.usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), amount] }),
      gas: TRANSFER_GAS,
      value: 0n,
      ...(await this.fees()),
    });
    return { txHash: keccak256(raw), raw, nonce, validUntil: null };
  }

  /**
   * A node takes a transaction only while its sender can pay the upfront cost (gas × max fee) of
   * it and of every transaction queued before it: checked, and topped up, before each send, since
   * transfers mined since the signing may have spent the vault's gas.
   */
  async broadcast(transfer: SignedTransfer, sender: Sender, signing: TransferSigning): Promise<void> {
    const vault = getAddress(sender.address);
    const { gas, maxFeePerGas } = parseTransaction(transfer.raw as Hex);
    const mined = BigInt(await this.client.getTransactionCount({ address: vault, blockTag: 'latest' }));
    if (transfer.nonce !== null && transfer.nonce >= mined) {
      await this.ensureGas(vault, (gas ?? TRANSFER_GAS) * (maxFeePerGas ?? 0n) * (transfer.nonce - mined + 1n), signing);
    }
    try {
      await this.client.sendRawTransaction({ serializedTransaction: transfer.raw as Hex });
    } catch (err) {
      // The same transaction again, in the node's pool already or mined: asked of the node by its
      // hash, never read from the refusal's wording (nonce too low is also what another
      // transaction with this nonce would cause).
      if (await this.knows(transfer.txHash as Hex)) return;
      throw err;
    }
  }

  /** Whether the node has the transaction, pending or mined. */
  private async knows(hash: Hex): Promise<boolean> {
    try {
      await this.client.getTransaction({ hash });
      return true;
    } catch (err) {
      if (err instanceof TransactionNotFoundError) return false;
      throw err;
    }
  }

  async transferOutcome(transfer: SignedTransfer): Promise<TransferOutcome> {
    try {
      const receipt = await this.client.getTransactionReceipt({ hash: transfer.txHash as Hex });
      return receipt.status === 'success'
        ? { kind: 'succeeded', block: receipt.blockNumber }
        : { kind: 'reverted', block: receipt.blockNumber, reason: 'the transaction reverted' };
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return { kind: 'unknown' };
      throw err;
    }
  }

  /** EIP-1559 fees with headroom. */
  private async fees(): Promise<Fees> {
    const estimate = await this.client.estimateFeesPerGas();
    return { maxFeePerGas: estimate.maxFeePerGas * FEE_HEADROOM, maxPriorityFeePerGas: estimate.maxPriorityFeePerGas };
  }
}
