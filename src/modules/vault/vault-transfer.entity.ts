import { Check, Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import type { ChainName } from '../../config/vault-chains.config';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';

import { VAULT_TRANSFER_STATES, VaultTransferStatus } from './vault.states';

/**
 * A transfer of USDC out of a business's vault, from its reservation to its outcome on the chain,
 * its status moved by `VAULT_TRANSFER_STATES` only. Once `raw_tx` is set it is signed: the
 * recovery point, from which it is only ever broadcast again, unchanged. Its line in the vault's
 * transactions is `vault_transaction_id`, moved in step in the same statements.
 */
// The dashboard search's indexes: made by the DashboardSearch migration (expressions TypeORM cannot declare).
@Index('idx_vault_transfers_search_reference', { synchronize: false })
@Index('idx_vault_transfers_search_amount', { synchronize: false })
// The money census's (MoneyCensus migration): the unfinished rows only.
@Index('idx_vault_transfers_unfinished', { synchronize: false })
@Entity({ name: 'vault_transfers' })
@Check('chk_vault_transfers_status', `status IN (${VAULT_TRANSFER_STATES.sqlList()})`)
@Check('chk_vault_transfers_amount', `amount > 0 AND network_fee >= 0`)
@Index('idx_vault_transfers_merchant_seq', ['merchantId', 'seq'])
@Index('idx_vault_transfers_open', ['chain', 'status'], { where: `status IN ('pending', 'submitted')` })
// One transaction is one transfer: were two transfers ever signed alike, the second could not be stored.
@Index('uq_vault_transfers_tx_hash', ['chain', 'txHash'], { unique: true, where: `tx_hash IS NOT NULL` })
@Index('idx_vault_transfers_sender_nonce', ['chain', 'fromAddress', 'nonce'], { unique: true, where: `nonce IS NOT NULL` })
export class VaultTransferEntity extends MerchantOwnedEntity {
  @Column({ name: 'pobo_user_id', type: 'text' })
  poboUserId: string;

  @Column({ name: 'vault_transaction_id', type: 'text', unique: true })
  vaultTransactionId: string;

  @Column({ type: 'text' })
  chain: ChainName;

  @Column({ type: 'text' })
  asset: string;

  /** Micro-USDC. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ name: 'network_fee', type: 'bigint' })
  networkFee: string;

  @Column({ name: 'from_address', type: 'text' })
  fromAddress: string;

  /** The vault's key: the business's wallet index. */
  @Column({ name: 'wallet_index', type: 'integer' })
  walletIndex: number;

  @Column({ name: 'to_address', type: 'text' })
  toAddress: string;

  @Column({ name: 'merchant_reference', type: 'text' })
  merchantReference: string;

  @Column({ type: 'text' })
  status: VaultTransferStatus;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  /** Why the worker cannot move it on now (a chain that does not answer, a gas top-up that fails); null while it progresses. */
  @Column({ name: 'stalled_reason', type: 'text', nullable: true })
  stalledReason: string | null;

  /** The signed transaction (hex on the EVM chains, base64 on Solana), its hash, nonce (EVM) and last valid block height (Solana). */
  @Column({ name: 'raw_tx', type: 'text', nullable: true })
  rawTx: string | null;

  @Column({ name: 'tx_hash', type: 'text', nullable: true })
  txHash: string | null;

  @Column({ type: 'bigint', nullable: true })
  nonce: string | null;

  @Column({ name: 'valid_until', type: 'bigint', nullable: true })
  validUntil: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'submitted_at', type: 'timestamptz', nullable: true })
  submittedAt: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
