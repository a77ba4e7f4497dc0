import { Check, Column, CreateDateColumn, Entity, Index, Unique, UpdateDateColumn } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import { WITHDRAWAL_STATES, WithdrawalStatus } from './withdrawal.states';

/** A payout of the merchant's NGN balance to a Nigerian bank account; its id (`wd_…`) is the rail's idempotency key for the payout. */
// The dashboard search's indexes: made by the DashboardSearch migration (expressions TypeORM cannot declare).
@Index('idx_withdrawals_search_name', { synchronize: false })
@Index('idx_withdrawals_search_account', { synchronize: false })
@Index('idx_withdrawals_search_amount', { synchronize: false })
// The money census's (MoneyCensus migration): the unfinished rows only.
@Index('idx_withdrawals_unfinished', { synchronize: false })
@Entity({ name: 'withdrawals' })
@Check('chk_withdrawals_status', `"status" IN (${WITHDRAWAL_STATES.sqlList()})`)
@Check('chk_withdrawals_amounts', `amount > 0 AND fee >= 0`)
@Unique('uq_withdrawals_merchant_reference', ['merchantId', 'merchantReference'])
@Index('idx_withdrawals_merchant_seq', ['merchantId', 'seq'])
@Index('idx_withdrawals_pending', ['updatedAt'], { where: `status = 'pending'` })
export class WithdrawalEntity extends MerchantOwnedEntity {
  @Column({ name: 'merchant_reference', type: 'text' })
  merchantReference: string;

  /** Minor units, paid out. */
  @Column({ type: 'bigint' })
  amount: string;

  /** Minor units, kept by the platform. */
  @Column({ type: 'bigint' })
  fee: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  status: WithdrawalStatus;

  @Column({ name: 'bank_code', type: 'text' })
  bankCode: string;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ name: 'account_name', type: 'text' })
  accountName: string;

  @Column({ type: 'text', nullable: true })
  narration: string | null;

  @Column({ name: 'rail_payout_id', type: 'text', nullable: true })
  railPayoutId: string | null;

  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode: string | null;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
