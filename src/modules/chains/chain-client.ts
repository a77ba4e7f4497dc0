import type { Hex, TransactionSerializableEIP1559 } from 'viem';
import type { ChainName } from '../../config/vault-chains.config';

/** A USDC transfer into one of the addresses asked about, as its chain recorded it. */
export interface UsdcTransfer {
  /** The transaction's hash (EVM) or first signature (Solana). */
  txHash: string;
  /** Where in the transaction: the log index (EVM), or the token account's index (Solana). */
  index: number;
  from: string | null;
  to: string;
  /** Micro-USDC. */
  amount: bigint;
  /** The block number (EVM) or slot (Solana), and that block's hash: a reorganisation changes it. */
  block: bigint;
  blockHash: string;
}

/** Whose key signs: a business's wallet index, or the platform's (the EVM gas wallet, the Solana fee payer). */
export type SigningKey = number | 'platform';

/** Signatures by keys the chains never see: the wallet thread makes them. */
export interface TransferSigning {
  /** The platform's EVM gas wallet and Solana fee payer. */
  platformAddresses(): Promise<{ evm: string; svm: string }>;
  signEvmTransaction(key: SigningKey, transaction: TransactionSerializableEIP1559): Promise<Hex>;
  signSolanaMessage(keys: SigningKey[], message: Uint8Array): Promise<Uint8Array[]>;
}

/** A vault sending: its address on the chain and the wallet index of its key. */
export interface Sender {
  address: string;
  key: number;
}

/** A USDC transfer out to sign: from the vault, `amount` micro-USDC to `to`. */
export interface TransferOrder {
  sender: Sender;
  to: string;
  amount: bigint;
  /** The sender's nonce to use (EVM); null on Solana. */
  nonce: bigint | null;
  /**
   * The transfer's own id. Solana carries it in a memo: two equal transfers signed under one
   * blockhash would otherwise be one transaction, with one signature (the EVM nonce already tells
   * them apart).
   */
  reference: string;
}

/** A transfer out, signed and not yet known to the chain: what is broadcast, as often as needed, unchanged. */
export interface SignedTransfer {
  txHash: string;
  /** The signed transaction as the chain's RPC takes it (hex on the EVM chains, base64 on Solana). */
  raw: string;
  /** The sender's nonce it uses (EVM); null on Solana. */
  nonce: bigint | null;
  /** The last block height at which it can still land (Solana: its blockhash's); null on the EVM chains. */
  validUntil: bigint | null;
}

/** What became of a broadcast transfer. */
export type TransferOutcome =
  | { kind: 'succeeded'; block: bigint }
  | { kind: 'reverted'; block: bigint; reason: string }
  /** Not in a block (yet): broadcast it again. */
  | { kind: 'unknown' }
  /** Never in a block and never can be (Solana: its blockhash expired): safe to sign anew. */
  | { kind: 'expired' };

/** The chain refused a transfer outright (a simulation that fails: a frozen account, say); it never lands. */
export class TransferRefusedError extends Error {}

/** The addresses asked about: a Set, or the keys of a Map of their owners. */
export type AddressSet = Pick<ReadonlySet<string>, 'has'>;

/**
 * One chain, through its standard JSON-RPC: all the vault knows of a chain. An adapter per kind
 * (`EvmChainClient` on viem, `SolanaChainClient` on @solana/kit); what it talks to, a node, a
 * provider or a local chain, is configuration.
 */
export interface ChainClient {
  readonly name: ChainName;
  /** The newest block number (EVM) or confirmed slot (Solana). */
  head(): Promise<bigint>;
  /** The hash of the block now at `block`, or null when there is none (not mined yet, or a skipped slot). */
  blockHash(block: bigint): Promise<string | null>;
  /** USDC transfers to any of `recipients` in blocks `from` to `to`, both included, in chain order. */
  usdcTransfersTo(recipients: AddressSet, from: bigint, to: bigint): Promise<UsdcTransfer[]>;
  /** The USDC `owner` holds, in micro-USDC. */
  usdcBalance(owner: string): Promise<bigint>;
  /** The chain's own coin `owner` holds, in its smallest unit (wei, lamports): what pays for gas and fees. */
  nativeBalance(owner: string): Promise<bigint>;

  /**
   * Readies the vault to send and answers the lowest nonce it may use (EVM: its native balance is
   * topped up from the platform's gas wallet when it would not cover a transfer's gas); null on
   * Solana, whose fee payer pays.
   */
  prepareSender(sender: Sender, signing: TransferSigning): Promise<bigint | null>;
  /** Builds and signs a USDC transfer; each order's transaction is its own, whatever other order is equal to it. */
  signUsdcTransfer(order: TransferOrder, signing: TransferSigning): Promise<SignedTransfer>;
  /**
   * Sends a signed transfer (again), first readying the sender for it as `prepareSender` does (EVM:
   * gas for this transaction and those queued before it; a vault's gas can run low between
   * signing and a rebroadcast). Sending one the chain has already is no error. Throws
   * `TransferRefusedError` when the chain refuses it.
   */
  broadcast(transfer: SignedTransfer, sender: Sender, signing: TransferSigning): Promise<void>;
  transferOutcome(transfer: SignedTransfer): Promise<TransferOutcome>;
}

/** How long one call may take, and how often it is retried on a network error. */
export interface CallBudget {
  timeoutMs: number;
  retries: number;
}

/**
 * What went wrong with a chain call, for a log line: viem's short message (its long one lists the
 * request), and never a URL, since a provider's RPC URL carries its credentials.
 */
export function describeChainError(err: unknown): string {
  const text = err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message.split('\n')[0]) : String(err);
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[rpc url]');
}
