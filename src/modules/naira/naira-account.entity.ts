import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { PoboBusinessEntity } from '../pobo-businesses/pobo-business.entity';

/** The Naira receiving account of a verified business, as provisioned on the bank rail. */
@Entity({ name: 'naira_accounts' })
@Index('uq_naira_accounts_account_number', ['accountNumber'], { unique: true, where: 'account_number IS NOT NULL' })
export class NairaAccountEntity {
  @PrimaryColumn({ name: 'business_id', type: 'text' })
  businessId: string;

  @OneToOne(() => PoboBusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: PoboBusinessEntity;

  @Column({ name: 'provider_reference', type: 'text', nullable: true })
  providerReference: string | null;

  /** Kept once the account is closed: a transfer that still arrives there is known as this business's, and returned. */
  @Column({ name: 'account_number', type: 'text', nullable: true })
  accountNumber: string | null;

  @Column({ name: 'account_name', type: 'text', nullable: true })
  accountName: string | null;

  @Column({ name: 'bank_name', type: 'text', nullable: true })
  bankName: string | null;

  @Column({ name: 'bank_code', type: 'text', nullable: true })
  bankCode: string | null;

  /** When an operator closed it, and why: transfers into it are returned from then on. */
  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ name: 'closed_note', type: 'text', nullable: true })
  closedNote: string | null;

  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** When the last round gave up; cleared by the next round. Retries wait a while after it. */
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
