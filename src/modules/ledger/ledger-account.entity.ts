import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * One account of the double-entry ledger: a merchant's `available` or `reserved` money in one
 * currency, or one of the platform's (see `PlatformAccount`). A merchant account's `balance` is
 * the sum of its entries (credits positive), kept in step in the transaction that posts them, and
 * never below zero. A platform account keeps none (NULL): every merchant's postings touch it, and a
 * kept balance would make its row a lock they all queue on. Its balance is the sum of its entries.
 */
@Entity({ name: 'ledger_accounts' })
// On (merchant, business of a vault account): an expression TypeORM cannot declare; the migration makes it.
@Index('idx_ledger_accounts_vault_holders', { synchronize: false })
@Check('chk_ledger_accounts_merchant_not_negative', `merchant_id IS NULL OR balance >= 0`)
@Check('chk_ledger_accounts_balance_kept', `(merchant_id IS NULL) = (balance IS NULL)`)
export class LedgerAccountEntity {
  /** `<merchant id or "platform">:<kind>:<currency>`, derived, so posting never looks an account up. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'merchant_id', type: 'text', nullable: true })
  merchantId: string | null;

  @Column({ type: 'text' })
  kind: string;

  @Column({ type: 'text' })
  currency: string;

  /** Minor units; NULL for a platform account. */
  @Column({ type: 'bigint', nullable: true })
  balance: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
