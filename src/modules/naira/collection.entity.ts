import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';

export const COLLECTION_RETURN_REASONS = ['account_closed', 'collection_not_active'] as const;
export type CollectionReturnReason = (typeof COLLECTION_RETURN_REASONS)[number];
export type CollectionStatus = 'credited' | 'returned';

/**
 * A transfer the bank rail received into a business's own Naira account: credited to the
 * merchant's balance, or (the account closed) recorded as returned and sent back to its sender.
 */
@Entity({ name: 'collections' })
@Check('chk_collections_status', `"status" IN ('credited', 'returned') AND ("status" = 'returned') = (return_reason IS NOT NULL)`)
@Index('idx_collections_merchant_seq', ['merchantId', 'seq'])
@Index('idx_collections_business_seq', ['poboUserId', 'seq'])
@Index('idx_collections_return_pending', ['id'], { where: `status = 'returned' AND rail_return_id IS NULL` })
export class CollectionEntity extends MerchantOwnedEntity {
  @Column({ name: 'pobo_user_id', type: 'text' })
  poboUserId: string;

  /** The rail's transfer id: one collection per transfer, however often the rail tells us. */
  @Column({ name: 'rail_transfer_id', type: 'text', unique: true })
  railTransferId: string;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  /** Minor units. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'sender_name', type: 'text', nullable: true })
  senderName: string | null;

  @Column({ name: 'sender_bank_name', type: 'text' })
  senderBankName: string;

  @Column({ name: 'sender_account_number', type: 'text' })
  senderAccountNumber: string;

  @Column({ type: 'text', nullable: true })
  narration: string | null;

  @Column({ type: 'text' })
  status: CollectionStatus;

  @Column({ name: 'return_reason', type: 'text', nullable: true })
  returnReason: CollectionReturnReason | null;

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
