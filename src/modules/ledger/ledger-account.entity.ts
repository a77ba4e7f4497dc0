import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * One account of the double-entry ledger: a merchant's `available` or `reserved` money in one
 * currency, or one of the platform's (see `PlatformAccount`). `balance` is the sum of the
 * account's entries (credits positive), kept in step in the transaction that posts them.
 * A merchant's accounts can never go below zero.
 */
@Entity({ name: 'ledger_accounts' })
@Check('chk_ledger_accounts_merchant_not_negative', `merchant_id IS NULL OR balance >= 0`)
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

  /** Minor units. */
  @Column({ type: 'bigint', default: 0 })
  balance: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
