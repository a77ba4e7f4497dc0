import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PaymentIntentEntity } from './payment-intent.entity';

export const RETURN_REASONS = ['amount_mismatch', 'sender_mismatch', 'intent_expired', 'already_funded'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** A transfer the rail received into an intent's account: accepted, or returned to its sender. */
@Entity({ name: 'inbound_payments' })
@Check('chk_inbound_payments_status', `"status" IN ('accepted', 'returned') AND ("status" = 'returned') = (return_reason IS NOT NULL)`)
@Index('idx_inbound_payments_intent', ['paymentIntentId', 'receivedAt'])
@Index('idx_inbound_payments_return_pending', ['id'], { where: `status = 'returned' AND rail_return_id IS NULL` })
export class InboundPaymentEntity {
  /** `pay_` + 24 hex. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'payment_intent_id', type: 'text' })
  paymentIntentId: string;

  @ManyToOne(() => PaymentIntentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'payment_intent_id' })
  paymentIntent?: PaymentIntentEntity;

  /** The rail's transfer id: one payment per transfer, however often the rail tells us. */
  @Column({ name: 'rail_transfer_id', type: 'text', unique: true })
  railTransferId: string;

  /** Minor units. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ name: 'sender_bank_name', type: 'text' })
  senderBankName: string;

  @Column({ name: 'sender_account_number', type: 'text' })
  senderAccountNumber: string;

  @Column({ type: 'text' })
  status: 'accepted' | 'returned';

  @Column({ name: 'return_reason', type: 'text', nullable: true })
  returnReason: ReturnReason | null;

  /** The rail's id of the return, once the money went back. */
  @Column({ name: 'rail_return_id', type: 'text', nullable: true })
  railReturnId: string | null;

  @Column({ name: 'returned_at', type: 'timestamptz', nullable: true })
  returnedAt: Date | null;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
