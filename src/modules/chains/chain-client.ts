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
}

/** How long one call may take, and how often it is retried on a network error. */
export interface CallBudget {
  timeoutMs: number;
  retries: number;
}
