import { Check, Column, CreateDateColumn, Entity, Index, Unique, UpdateDateColumn } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import { PAYMENT_INTENT_STATES, PaymentIntentStatus } from './payment-intent.states';

/** A Naira collection: a dynamic virtual account for one expected transfer of `amount`. */
// The dashboard search's indexes: made by the DashboardSearch migration (expressions TypeORM cannot declare).
@Index('idx_payment_intents_search_account', { synchronize: false })
@Index('idx_payment_intents_search_amount', { synchronize: false })
// The money census's (MoneyCensus migration): the unfinished rows only.
@Index('idx_payment_intents_unfinished', { synchronize: false })
@Entity({ name: 'payment_intents' })
@Check('chk_payment_intents_status', `"status" IN (${PAYMENT_INTENT_STATES.sqlList()})`)
@Check('chk_payment_intents_amount', `amount > 0`)
@Unique('uq_payment_intents_merchant_reference', ['merchantId', 'merchantReference'])
@Unique('uq_payment_intents_account_number', ['accountNumber'])
@Index('idx_payment_intents_merchant_seq', ['merchantId', 'seq'])
@Index('idx_payment_intents_awaiting_expiry', ['expiresAt'], { where: `status = 'awaiting_payment'` })
export class PaymentIntentEntity extends MerchantOwnedEntity {
  @Column({ name: 'merchant_reference', type: 'text' })
  merchantReference: string;

  /** Minor units. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  status: PaymentIntentStatus;

  /** Minor units: the accepted inbound payments. */
  @Column({ name: 'amount_received', type: 'bigint', default: 0 })
  amountReceived: string;

  @Column({ name: 'expected_sender_bank_name', type: 'text', nullable: true })
  expectedSenderBankName: string | null;

  @Column({ name: 'expected_sender_account_number', type: 'text', nullable: true })
  expectedSenderAccountNumber: string | null;

  /** The rail's id of the dynamic virtual account. */
  @Column({ name: 'virtual_account_id', type: 'text' })
  virtualAccountId: string;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ name: 'account_name', type: 'text' })
  accountName: string;

  @Column({ name: 'bank_name', type: 'text' })
  bankName: string;

  @Column({ name: 'bank_code', type: 'text' })
  bankCode: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'funded_at', type: 'timestamptz', nullable: true })
  fundedAt: Date | null;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
