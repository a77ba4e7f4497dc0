import {
  address,
  createSolanaRpc,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED,
  isSolanaError,
  type Address,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { SolanaChainConfig } from '../../config/vault-chains.config';
import type { AddressSet, CallBudget, ChainClient, UsdcTransfer } from './chain-client';

/** At most this many slots are read per call: a block is a call. */
export const MAX_SLOTS_PER_SCAN = 500n;

/** Solana through its JSON-RPC, with @solana/kit. A vault's USDC lives in its associated token account. */
export class SolanaChainClient implements ChainClient {
  readonly name = 'solana' as const;
  private readonly rpc: Rpc<SolanaRpcApi>;
  private readonly mint: Address;

  constructor(
    config: SolanaChainConfig,
    private readonly budget: CallBudget,
  ) {
    this.rpc = createSolanaRpc(config.rpcUrl);
    this.mint = address(config.usdcMint);
  }

  head(): Promise<bigint> {
    return this.call(() => this.rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal: this.signal() }));
  }

  async blockHash(slot: bigint): Promise<string | null> {
    const block = await this.block(slot);
    return block?.blockhash ?? null;
  }

  /**
   * Reads each slot's block and compares every USDC account's balance before and after each
   * transaction: what an account of a recipient gained is a transfer to it (mints included, from
   * nobody), whatever instruction moved it.
   */
  async usdcTransfersTo(recipients: AddressSet, from: bigint, to: bigint): Promise<UsdcTransfer[]> {
    if (to - from >= MAX_SLOTS_PER_SCAN) throw new RangeError(`read at most ${MAX_SLOTS_PER_SCAN} slots at a time`);
    const transfers: UsdcTransfer[] = [];
    for (let slot = from; slot <= to; slot++) {
      const block = await this.block(slot);
      for (const tx of block?.transactions ?? []) {
        const meta = tx.meta;
        if (!meta || meta.err) continue;
        const usdc = (balances: typeof meta.postTokenBalances) => (balances ?? []).filter((balance) => balance.mint === this.mint);
        const before = new Map(usdc(meta.preTokenBalances).map((balance) => [balance.accountIndex, BigInt(balance.uiTokenAmount.amount)]));
        const after = usdc(meta.postTokenBalances);
        const sender = after.find((balance) => BigInt(balance.uiTokenAmount.amount) < (before.get(balance.accountIndex) ?? 0n))?.owner ?? null;
        for (const balance of after) {
          const gained = BigInt(balance.uiTokenAmount.amount) - (before.get(balance.accountIndex) ?? 0n);
          if (gained <= 0n || !balance.owner || !recipients.has(balance.owner)) continue;
          transfers.push({
            txHash: tx.transaction.signatures[0],
            index: balance.accountIndex,
            from: sender,
            to: balance.owner,
            amount: gained,
            block: slot,
            blockHash: block!.blockhash,
          });
        }
      }
    }
    return transfers;
  }

  async usdcBalance(owner: string): Promise<bigint> {
    const [account] = await findAssociatedTokenPda({ owner: address(owner), mint: this.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const info = await this.call(() => this.rpc.getAccountInfo(account, { encoding: 'base64' }).send({ abortSignal: this.signal() }));
    if (!info.value) return 0n;
    const { value } = await this.call(() => this.rpc.getTokenAccountBalance(account).send({ abortSignal: this.signal() }));
    return BigInt(value.amount);
  }

  /** The block at `slot`, or null when the slot was skipped (no block, or none yet). */
  private async block(slot: bigint) {
    try {
      return await this.call(() =>
        this.rpc
          .getBlock(slot, { encoding: 'json', transactionDetails: 'full', maxSupportedTransactionVersion: 0, rewards: false, commitment: 'confirmed' })
          .send({ abortSignal: this.signal() }),
      );
    } catch (err) {
      if (isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED)) return null;
      throw err;
    }
  }

  private signal(): AbortSignal {
    return AbortSignal.timeout(this.budget.timeoutMs);
  }

  /** Retries a call that failed on the network (not one the node refused), as the EVM adapter's transport does. */
  private async call<T>(send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        if (attempt >= this.budget.retries || isSolanaError(err)) throw err;
      }
    }
  }
}
