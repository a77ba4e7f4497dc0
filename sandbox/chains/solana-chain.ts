import { createHash } from 'node:crypto';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase58Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import {
  AccountState,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getMintEncoder,
  getMintToInstruction,
  getTokenDecoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { KeyedSerializer } from '../../src/common/concurrency/keyed-serializer';
import { DEVELOPMENT_CHAINS, type ChainsProfile } from './profiles';

/** A JSON-RPC refusal, as a Solana node answers it. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const USDC_DECIMALS = 6;
const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82n;

/** The development USDC mint on the local Solana chain. */
export const DEV_USDC_MINT: Address = DEVELOPMENT_CHAINS.solanaMint;

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number; uiAmountString: string };
}

export interface Recorded {
  signature: string;
  slot: bigint;
  blockTime: number;
  wire: Uint8Array;
  fee: bigint;
  logs: string[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  accountKeys: Address[];
}

interface Snapshot {
  state: Uint8Array;
  history: Map<string, Recorded>;
  byAddress: Map<string, string[]>;
  bySlot: Map<bigint, string[]>;
}

/**
 * The local Solana chain: LiteSVM (Solana's runtime, in process) with the SPL Token program and a
 * USDC mint, and what LiteSVM does not keep, kept here: each transaction's slot, its token
 * balances before and after, and the signatures touching each address, so the JSON-RPC methods a
 * client uses answer as a validator's do. Every transaction gets a new slot of its own; `tick`
 * advances the slot without one (confirmations in development). `snapshot` / `revert` make a fork: what was
 * sent after the snapshot disappears, as a dropped block's transactions do.
 */
export class SolanaChain {
  private svm = new LiteSVM();
  private history = new Map<string, Recorded>();
  private byAddress = new Map<string, string[]>();
  private bySlot = new Map<bigint, string[]>();
  private readonly snapshots: Snapshot[] = [];
  /** The signature that froze each token account. */
  private readonly freezes = new Map<string, string>();
  /**
   * The faucet's calls one after the other: each reads the chain, then signs and sends (freeze
   * reads whether the account is frozen), and two at once would act on the same reading.
   */
  private readonly faucetCalls = new KeyedSerializer();

  private constructor(
    readonly authority: KeyPairSigner,
    readonly usdcMint: Address,
  ) {}

  /** The chain with its USDC mint, whose mint and freeze authority is the faucet's key (development's unless given). */
  static async start(profile: Pick<ChainsProfile, 'solanaMint' | 'solanaAuthoritySeed'> = DEVELOPMENT_CHAINS): Promise<SolanaChain> {
    const chain = new SolanaChain(await createKeyPairSignerFromPrivateKeyBytes(profile.solanaAuthoritySeed), profile.solanaMint);
    chain.svm.airdrop(chain.authority.address, lamports(1_000_000_000_000n));
    chain.svm.setAccount({
      address: chain.usdcMint,
      programAddress: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      lamports: lamports(chain.svm.minimumBalanceForRentExemption(MINT_SIZE)),
      space: MINT_SIZE,
      data: new Uint8Array(
        getMintEncoder().encode({
          mintAuthority: chain.authority.address,
          supply: 0n,
          decimals: USDC_DECIMALS,
          isInitialized: true,
          freezeAuthority: chain.authority.address,
        }),
      ),
    });
    return chain;
  }

  get slot(): bigint {
    return this.svm.getClock().slot;
  }

  /** A new slot without a transaction. */
  tick(): void {
    this.svm.warpToSlot(this.slot + 1n);
  }

  latestBlockhash(): string {
    return this.svm.latestBlockhash();
  }

  snapshot(): number {
    this.snapshots.push({
      state: this.svm.toBytes(),
      history: new Map(this.history),
      byAddress: new Map([...this.byAddress].map(([k, v]) => [k, [...v]])),
      bySlot: new Map(this.bySlot),
    });
    return this.snapshots.length - 1;
  }

  /** Back to snapshot `id`: every later transaction is gone; later snapshots too. */
  revert(id: number): void {
    const snapshot = this.snapshots[id];
    if (!snapshot) throw new RpcError(-32602, `no snapshot ${id}`);
    this.snapshots.length = id;
    this.svm = LiteSVM.fromBytes(snapshot.state);
    this.history = snapshot.history;
    this.byAddress = snapshot.byAddress;
    this.bySlot = snapshot.bySlot;
  }

  /**
   * Executes a signed transaction (wire bytes) in its own slot and records it; a failure is refused
   * as preflight would. A signature the chain holds already is refused as a validator refuses it
   * (`AlreadyProcessed`) and never runs twice: a resend after a lost answer must not move money
   * again, on this chain as on a real cluster.
   */
  send(wire: Uint8Array): string {
    const transaction = getTransactionDecoder().decode(wire);
    const [first] = Object.values(transaction.signatures);
    if (first && this.history.has(getBase58Decoder().decode(first))) {
      throw new RpcError(-32002, 'Transaction simulation failed: This transaction has already been processed', { err: 'AlreadyProcessed', logs: [] });
    }
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    const accountKeys = message.staticAccounts;
    const pre = this.tokenBalances(accountKeys);
    // Each transaction in a slot of its own, which is then the newest one (`getSlot`).
    this.tick();
    const result = this.svm.sendTransaction(transaction);
    if (result instanceof FailedTransactionMetadata) {
      throw new RpcError(-32002, `Transaction simulation failed: ${result.toString()}`, { err: String(result.err()), logs: result.meta().logs() });
    }
    const signature = getBase58Decoder().decode(result.signature());
    const slot = this.slot;
    this.history.set(signature, {
      signature,
      slot,
      blockTime: Math.floor(Date.now() / 1000),
      wire,
      fee: 5000n * BigInt(message.header.numSignerAccounts),
      logs: result.logs(),
      preTokenBalances: pre,
      postTokenBalances: this.tokenBalances(accountKeys),
      accountKeys,
    });
    for (const key of accountKeys) {
      const list = this.byAddress.get(key) ?? [];
      list.push(signature);
      this.byAddress.set(key, list);
    }
    this.bySlot.set(slot, [signature]);
    return signature;
  }

  /**
   * The block of `slot`: its transactions and a hash of what it holds, so the same slot after a
   * fork (other transactions) has another hash. A slot without a transaction has no block, as a
   * skipped slot on a validator.
   */
  block(slot: bigint): { blockhash: string; transactions: Recorded[] } | null {
    const signatures = this.bySlot.get(slot);
    if (!signatures) return null;
    const hash = createHash('sha256')
      .update(`${slot}:${signatures.join(',')}`)
      .digest();
    return { blockhash: getBase58Decoder().decode(hash), transactions: signatures.map((signature) => this.history.get(signature)!) };
  }

  transaction(signature: string): Recorded | undefined {
    return this.history.get(signature);
  }

  /** Signatures touching `account`, newest first, before `before` (exclusive) and after `until` (exclusive). */
  signaturesFor(account: string, options: { limit: number; before?: string; until?: string }): Recorded[] {
    const all = (this.byAddress.get(account) ?? []).slice().reverse();
    const start = options.before ? all.indexOf(options.before) + 1 : 0;
    const out: Recorded[] = [];
    for (const signature of all.slice(start)) {
      if (signature === options.until || out.length >= options.limit) break;
      out.push(this.history.get(signature)!);
    }
    return out;
  }

  account(account: Address): { lamports: bigint; owner: string; data: Uint8Array; executable: boolean } | null {
    const found = this.svm.getAccount(account);
    if (!found.exists) return null;
    return { lamports: found.lamports, owner: found.programAddress, data: new Uint8Array(found.data), executable: found.executable };
  }

  balance(account: Address): bigint {
    return this.svm.getBalance(account) ?? 0n;
  }

  rentExemption(size: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(size);
  }

  airdrop(to: Address, amount: bigint): void {
    const result = this.svm.airdrop(to, lamports(amount));
    if (!result || result instanceof FailedTransactionMetadata) throw new RpcError(-32603, 'airdrop failed');
  }

  /** The SPL token balance of a token account, or null when it is none. */
  tokenAmount(account: Address): bigint | null {
    const found = this.account(account);
    if (!found || found.owner !== TOKEN_PROGRAM_ADDRESS || found.data.length !== TOKEN_ACCOUNT_SIZE) return null;
    return getTokenDecoder().decode(found.data).amount;
  }

  /** The faucet: mints `amount` micro-USDC to `owner`'s USDC account (made first when missing), in a real transaction. */
  mint(owner: Address, amount: bigint): Promise<string> {
    return this.faucetCalls.run('faucet', async () => {
      const [ata] = await findAssociatedTokenPda({ owner, mint: this.usdcMint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      return this.sendAsAuthority([
        getCreateAssociatedTokenIdempotentInstruction({ payer: this.authority, ata, owner, mint: this.usdcMint }),
        getMintToInstruction({ mint: this.usdcMint, token: ata, mintAuthority: this.authority, amount }),
      ]);
    });
  }

  /** Circle's blacklist on Solana: the owner's USDC account is frozen, so a transfer to it fails. */
  freeze(owner: Address): Promise<string> {
    return this.faucetCalls.run('faucet', async () => {
      const [ata] = await findAssociatedTokenPda({ owner, mint: this.usdcMint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const token = this.account(ata);
      const frozen = token !== null && getTokenDecoder().decode(token.data).state === AccountState.Frozen;
      // Frozen already: the transaction that froze it, as a repeated blacklisting on the EVM chains answers one.
      const earlier = this.freezes.get(ata);
      if (frozen && earlier) return earlier;
      const signature = await this.sendAsAuthority([
        getCreateAssociatedTokenIdempotentInstruction({ payer: this.authority, ata, owner, mint: this.usdcMint }),
        ...(frozen ? [] : [getFreezeAccountInstruction({ account: ata, mint: this.usdcMint, owner: this.authority })]),
      ]);
      this.freezes.set(ata, signature);
      return signature;
    });
  }

  private async sendAsAuthority(instructions: Instruction[]): Promise<string> {
    // A blockhash of its own: the same mint twice under one blockhash would be the same signature,
    // which the chain refuses as already processed (LiteSVM's blockhash changes only when expired).
    this.svm.expireBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(this.authority, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: this.slot + 150n }, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed: Transaction = await signTransactionMessageWithSigners(message);
    return this.send(new Uint8Array(getTransactionEncoder().encode(signed)));
  }

  private tokenBalances(keys: readonly Address[]): TokenBalance[] {
    const balances: TokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const found = this.account(key);
      if (!found || found.owner !== TOKEN_PROGRAM_ADDRESS || found.data.length !== TOKEN_ACCOUNT_SIZE) return;
      const token = getTokenDecoder().decode(found.data);
      balances.push({ accountIndex, mint: token.mint, owner: token.owner, programId: TOKEN_PROGRAM_ADDRESS, uiTokenAmount: uiTokenAmount(token.amount) });
    });
    return balances;
  }
}

/** An amount of USDC as Solana's JSON-RPC shows a token amount: the raw amount and its decimal forms. */
export function uiTokenAmount(amount: bigint): TokenBalance['uiTokenAmount'] {
  const ui = (Number(amount) / 10 ** USDC_DECIMALS).toString();
  return { amount: amount.toString(), decimals: USDC_DECIMALS, uiAmount: Number(ui), uiAmountString: ui };
}

/** The base64 of bytes, as Solana's JSON-RPC encodes account data and transactions. */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(getBase64Encoder().encode(text));
}

export function isAddress(value: unknown): value is Address {
  if (typeof value !== 'string') return false;
  try {
    address(value);
    return true;
  } catch {
    return false;
  }
}
