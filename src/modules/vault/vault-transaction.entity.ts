import { Check, Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import type { ChainName } from '../../config/vault-chains.config';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import { VAULT_TRANSACTION_STATES, VaultTransactionStatus } from './vault.states';

export const VAULT_DIRECTIONS = ['deposit', 'transfer'] as const;
export type VaultDirection = (typeof VAULT_DIRECTIONS)[number];

/** One movement of USDC into or out of a business's vault on one chain, as the chain recorded it; its status moved by `VAULT_TRANSACTION_STATES` only. */
@Entity({ name: 'vault_transactions' })
@Check('chk_vault_transactions_direction', `direction IN ('deposit', 'transfer')`)
@Check('chk_vault_transactions_status', `status IN (${VAULT_TRANSACTION_STATES.sqlList()})`)
@Check('chk_vault_transactions_amount', `amount > 0 AND network_fee >= 0`)
@Index('idx_vault_transactions_merchant_seq', ['merchantId', 'seq'])
@Index('uq_vault_transactions_deposit', ['chain', 'txHash', 'logIndex'], { unique: true, where: `direction = 'deposit'` })
@Index('idx_vault_transactions_business_pending', ['poboUserId'], { where: `status = 'pending'` })
@Index('idx_vault_transactions_deposits_pending', ['chain', 'blockNumber'], { where: `direction = 'deposit' AND status = 'pending'` })
export class VaultTransactionEntity extends MerchantOwnedEntity {
  @Column({ name: 'pobo_user_id', type: 'text' })
  poboUserId: string;

  @Column({ type: 'text' })
  direction: VaultDirection;

  @Column({ type: 'text' })
  chain: ChainName;

  @Column({ type: 'text' })
  asset: string;

  /** Micro-USDC. */
  @Column({ type: 'bigint' })
  amount: string;

  /** What the business paid for a transfer out, in micro-USDC; 0 for a deposit. */
  @Column({ name: 'network_fee', type: 'bigint', default: 0 })
  networkFee: string;

  /** The sender; null for a mint. */
  @Column({ name: 'from_address', type: 'text', nullable: true })
  fromAddress: string | null;

  @Column({ name: 'to_address', type: 'text' })
  toAddress: string;

  /** The transaction's hash (Solana: its signature); null for a transfer not yet signed. */
  @Column({ name: 'tx_hash', type: 'text', nullable: true })
  txHash: string | null;

  /** A deposit's place in its transaction (the log index, or Solana's token account index). */
  @Column({ name: 'log_index', type: 'integer', nullable: true })
  logIndex: number | null;

  /** The block (or slot) it was seen in, and that block's hash: a reorganisation changes it. */
  @Column({ name: 'block_number', type: 'bigint', nullable: true })
  blockNumber: string | null;

  @Column({ name: 'block_hash', type: 'text', nullable: true })
  blockHash: string | null;

  /** As of the last time the worker looked; it stops counting once the deposit is credited. */
  @Column({ type: 'integer', default: 0 })
  confirmations: number;

  @Column({ type: 'text' })
  status: VaultTransactionStatus;

  @Column({ name: 'merchant_reference', type: 'text', nullable: true })
  merchantReference: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;
}
