import { Injectable } from '@nestjs/common';
import type { Hex, TransactionSerializableEIP1559 } from 'viem';
import { WalletThread } from './wallet-thread';
import type { DerivedAddresses, WalletKey } from './wallet.deriver';

/**
 * Signatures by the wallets' keys, made in the wallet thread: a business's vault key (its wallet
 * index) or the platform's (the EVM gas wallet, the Solana fee payer). No key ever reaches this
 * thread.
 */
@Injectable()
export class WalletSigner {
  private platform?: Promise<DerivedAddresses>;

  constructor(private readonly thread: WalletThread) {}

  /** The platform's EVM gas wallet and Solana fee payer. */
  platformAddresses(): Promise<DerivedAddresses> {
    this.platform ??= this.thread.request<DerivedAddresses>({ op: 'platform-addresses' });
    return this.platform;
  }

  /** The serialized signed EIP-1559 transaction. */
  signEvmTransaction(key: WalletKey, transaction: TransactionSerializableEIP1559): Promise<Hex> {
    return this.thread.request<Hex>({ op: 'sign-evm', key, transaction });
  }

  /** One ed25519 signature of `message` per key, in order. */
  signSolanaMessage(keys: WalletKey[], message: Uint8Array): Promise<Uint8Array[]> {
    return this.thread.request<Uint8Array[]>({ op: 'sign-svm', keys, message });
  }
}
