import { Check, Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { DASHBOARD_ROLES, DashboardRole } from '../../common/dashboard-roles';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';

/** A person who signs in to the Merchant Dashboard, for one merchant, with one role. */
@Entity({ name: 'users' })
@Check('chk_users_role', `"role" IN (${DASHBOARD_ROLES.map((role) => `'${role}'`).join(', ')})`)
@Index('idx_users_merchant_seq', ['merchantId', 'seq'])
export class UserEntity extends MerchantOwnedEntity {
  /** Lower-cased: one account per address, however it is typed. */
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'text' })
  email: string;

  /** argon2id, in its PHC string form (parameters and salt included). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ type: 'text' })
  role: DashboardRole;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  /** The TOTP secret, encrypted (AES-256-GCM); set at enrolment, before the first code confirms it. */
  @Column({ name: 'totp_secret', type: 'text', nullable: true })
  totpSecret: string | null;

  /** When a code confirmed the secret: from then on, login asks for a code. */
  @Column({ name: 'totp_enabled_at', type: 'timestamptz', nullable: true })
  totpEnabledAt: Date | null;

  /** The time step of the last code accepted: a code is never accepted twice. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
