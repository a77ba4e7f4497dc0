import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import { DASHBOARD_ROLES, DashboardRole } from '../../common/dashboard-roles';

/** An owner's invitation of someone, by e-mail, to the merchant's team with a role. */
@Entity({ name: 'invitations' })
@Check('chk_invitations_role', `"role" IN (${DASHBOARD_ROLES.map((role) => `'${role}'`).join(', ')})`)
@Index('idx_invitations_merchant_seq', ['merchantId', 'seq'])
export class InvitationEntity extends MerchantOwnedEntity {
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: DashboardRole;

  /** Who invited; kept as it was (the inviter may leave the team later). */
  @Column({ name: 'invited_by_email', type: 'text' })
  invitedByEmail: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
