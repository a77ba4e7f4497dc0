import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { WriterXidColumn } from './ledger-checkpoint.entity';

/** One movement of money: its entries sum to zero per currency. */
@Entity({ name: 'ledger_transactions' })
@Index('idx_ledger_transactions_source', ['sourceId'])
// BRIN on the writer's xid, which TypeORM cannot declare; the migration makes it.
@Index('idx_ledger_transactions_xid', { synchronize: false })
export class LedgerTransactionEntity {
  /** `ltx_` + 24 hex. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** What moved the money, e.g. `payment_received`, `withdrawal_reserved`. */
  @Column({ type: 'text' })
  type: string;

  /** The payment, payment intent or withdrawal behind it. */
  @Column({ name: 'source_id', type: 'text' })
  sourceId: string;

  /** Why, for a movement an operator made (a receivable recovered by hand or written off). */
  @Column({ type: 'text', nullable: true })
  note: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** See `WriterXidColumn`. */
  @WriterXidColumn()
  xid: string | null;
}
