import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { WriterXidColumn } from './ledger-checkpoint.entity';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import { LedgerTransactionEntity } from './ledger-transaction.entity';

export const BALANCE_TRANSACTION_TYPES = [
  'payment',
  'collection',
  'withdrawal',
  'withdrawal_reversal',
  'international_payment',
  'international_payment_reversal',
  'fee',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/**
 * A change of a merchant's available balance as the merchant sees it (`GET /balance-transactions`),
 * written with the ledger transaction that makes it.
 */
@Entity({ name: 'balance_transactions' })
@Index('idx_balance_transactions_merchant_seq', ['merchantId', 'seq'])
// BRIN on the writer's xid and on created_at (the 15 minutes `ledger:verify` sums again), which TypeORM cannot declare; the migration makes them.
@Index('idx_balance_transactions_xid', { synchronize: false })
@Index('idx_balance_transactions_created', { synchronize: false })
export class BalanceTransactionEntity extends MerchantOwnedEntity {
  @Column({ type: 'text' })
  type: BalanceTransactionType;

  /** Signed minor units. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'source_id', type: 'text' })
  sourceId: string;

  /** The business the money came in for or went out on behalf of, when there is one (a collection). */
  @Column({ name: 'pobo_user_id', type: 'text', nullable: true })
  poboUserId: string | null;

  @Column({ name: 'ledger_transaction_id', type: 'text' })
  ledgerTransactionId: string;

  @ManyToOne(() => LedgerTransactionEntity)
  @JoinColumn({ name: 'ledger_transaction_id' })
  ledgerTransaction?: LedgerTransactionEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** See `WriterXidColumn`. */
  @WriterXidColumn()
  xid: string | null;
}
