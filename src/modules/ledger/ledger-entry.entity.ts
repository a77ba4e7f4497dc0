import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WriterXidColumn } from './ledger-checkpoint.entity';
import { LedgerAccountEntity } from './ledger-account.entity';
import { LedgerTransactionEntity } from './ledger-transaction.entity';

/** One line of a ledger transaction: an amount (credit positive, debit negative) on one account. */
@Entity({ name: 'ledger_entries' })
@Check('chk_ledger_entries_amount', `amount <> 0`)
@Index('idx_ledger_entries_account', ['accountId'])
// BRIN on the writer's xid, which TypeORM cannot declare; the migration makes it.
@Index('idx_ledger_entries_xid', { synchronize: false })
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'transaction_id', type: 'text' })
  transactionId: string;

  @ManyToOne(() => LedgerTransactionEntity)
  @JoinColumn({ name: 'transaction_id' })
  transaction?: LedgerTransactionEntity;

  @Column({ name: 'account_id', type: 'text' })
  accountId: string;

  @ManyToOne(() => LedgerAccountEntity)
  @JoinColumn({ name: 'account_id' })
  account?: LedgerAccountEntity;

  /** Minor units, never zero. */
  @Column({ type: 'bigint' })
  amount: string;

  /** See `WriterXidColumn`. */
  @WriterXidColumn()
  xid: string | null;
}
