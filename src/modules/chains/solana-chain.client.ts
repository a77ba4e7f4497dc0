import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type Address,
  type Base64EncodedWireTransaction,
  type Rpc,
  type SignatureBytes,
  type SolanaRpcApi,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { getAddMemoInstruction } from '@solana-program/memo';
import type { SolanaChainConfig } from '../../config/vault-chains.config';
import {
  TransferRefusedError,
  type AddressSet,
  type CallBudget,
  type ChainClient,
  type SignedTransfer,
  type TransferOutcome,
  type TransferOrder,
  type TransferSigning,
  type UsdcTransfer,
} from './chain-client';

const USDC_DECIMALS = 6;

/**
 * The SPL Memo program, deployed at this address on every Solana cluster. Named here rather than
 * taken from the memo client's default, which points at a newer deployment than the clusters (and
 * the local chain) are sure to have.
 */
const SPL_MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

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
    const block = await this.unlessSkipped(() =>
      this.rpc.getBlock(slot, { transactionDetails: 'none', rewards: false, commitment: 'confirmed' }).send({ abortSignal: this.signal() }),
    );
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

  async nativeBalance(owner: string): Promise<bigint> {
    const { value } = await this.call(() => this.rpc.getBalance(address(owner), { commitment: 'confirmed' }).send({ abortSignal: this.signal() }));
    return value;
  }

  /** Solana's fee payer pays: nothing to ready, and no nonce (a blockhash bounds the transaction's life). */
  prepareSender(): Promise<null> {
    return Promise.resolve(null);
  }

  /**
   * An SPL `transferChecked` from the vault's USDC account to the recipient's (created first when
   * missing, paid by the platform's fee payer, which signs first and pays the fee); the vault's
   * key signs as the owner; a memo with the order's reference makes the transaction its own.
   * Valid until its blockhash expires.
   */
  async signUsdcTransfer({ sender, to, amount, reference }: TransferOrder, signing: TransferSigning): Promise<SignedTransfer> {
    const feePayer = createNoopSigner(address((await signing.platformAddresses()).svm));
    const owner = createNoopSigner(address(sender.address));
    const recipient = address(to);
    const [source] = await findAssociatedTokenPda({ owner: owner.address, mint: this.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [destination] = await findAssociatedTokenPda({ owner: recipient, mint: this.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const { value: lifetime } = await this.call(() => this.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal: this.signal() }));
    const transaction = compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(feePayer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getCreateAssociatedTokenIdempotentInstruction({ payer: feePayer, ata: destination, owner: recipient, mint: this.mint }),
              getTransferCheckedInstruction({ source, mint: this.mint, destination, authority: owner, amount, decimals: USDC_DECIMALS }),
              getAddMemoInstruction({ memo: reference }, { programAddress: SPL_MEMO_PROGRAM }),
            ],
            m,
          ),
      ),
    );
    const signers = Object.keys(transaction.signatures) as Address[];
    const signatures = await signing.signSolanaMessage(
      signers.map((signer) => (signer === feePayer.address ? 'platform' : sender.key)),
      new Uint8Array(transaction.messageBytes),
    );
    const signed = { ...transaction, signatures: Object.fromEntries(signers.map((signer, i) => [signer, signatures[i] as SignatureBytes])) };
    return {
      txHash: getSignatureFromTransaction(signed),
      raw: getBase64EncodedWireTransaction(signed),
      nonce: null,
      validUntil: lifetime.lastValidBlockHeight,
    };
  }

  /** The fee payer pays: nothing to ready before a send. */
  async broadcast(transfer: SignedTransfer): Promise<void> {
    try {
      await this.call(() =>
        this.rpc
          .sendTransaction(transfer.raw as Base64EncodedWireTransaction, { encoding: 'base64', preflightCommitment: 'confirmed' })
          .send({ abortSignal: this.signal() }),
      );
    } catch (err) {
      if (!isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) throw err;
      // Whether the chain has it is asked of the chain, never read from the refusal's wording: a
      // resend of a transaction that landed is refused, and that refusal is no failure.
      if (await this.knows(transfer.txHash)) return;
      // Its blockhash is gone: not a refusal of the transfer; its outcome turns `expired` and it is signed anew.
      if (isSolanaError(err.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)) return;
      throw new TransferRefusedError(`solana refused the transfer: ${err.message}`);
    }
  }

  /** Whether the chain holds the signature, at any commitment. */
  private async knows(signature: string): Promise<boolean> {
    const { value } = await this.call(() =>
      this.rpc.getSignatureStatuses([signature as never], { searchTransactionHistory: true }).send({ abortSignal: this.signal() }),
    );
    return value[0] !== null;
  }

  async transferOutcome(transfer: SignedTransfer): Promise<TransferOutcome> {
    const { value } = await this.call(() =>
      this.rpc.getSignatureStatuses([transfer.txHash as never], { searchTransactionHistory: true }).send({ abortSignal: this.signal() }),
    );
    const status = value[0];
    if (status && status.confirmationStatus !== 'processed') {
      return status.err ? { kind: 'reverted', block: status.slot, reason: JSON.stringify(status.err) } : { kind: 'succeeded', block: status.slot };
    }
    const height = await this.call(() => this.rpc.getBlockHeight({ commitment: 'confirmed' }).send({ abortSignal: this.signal() }));
    return !status && transfer.validUntil !== null && height > transfer.validUntil ? { kind: 'expired' } : { kind: 'unknown' };
  }

  /** The block at `slot`, or null when the slot was skipped (no block, or none yet). */
  private block(slot: bigint) {
    return this.unlessSkipped(() =>
      this.rpc
        .getBlock(slot, { encoding: 'json', transactionDetails: 'full', maxSupportedTransactionVersion: 0, rewards: false, commitment: 'confirmed' })
        .send({ abortSignal: this.signal() }),
    );
  }

  /** A block read (retried as every call is), or null when its slot was skipped. */
  private async unlessSkipped<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await this.call(read);
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
