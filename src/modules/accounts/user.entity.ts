import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';

/** A dashboard user's role: `owner` everything, `developer` API keys and every read, `viewer` reads only. */
export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** A person who signs in to the Merchant Dashboard, for one merchant, with one role. */
@Entity({ name: 'users' })
@Check('chk_users_role', `"role" IN (${ROLES.map((role) => `'${role}'`).join(', ')})`)
export class UserEntity {
  /** `usr_` + 24 hex characters. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_users_merchant_id')
  @Column({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  /** Lower-cased: one account per address, however it is typed. */
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'text' })
  email: string;

  /** argon2id, in its PHC string form (parameters and salt included). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ type: 'text' })
  role: Role;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
