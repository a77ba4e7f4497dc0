import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InvitationEntity } from './invitation.entity';
import { UserEntity } from './user.entity';

/** What an e-mailed link lets its holder do, once. */
export const TOKEN_PURPOSES = ['verify_email', 'reset_password', 'invitation'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/**
 * A single-use link sent by e-mail. The row is written with the change that asks for it (sign-up,
 * a reset request, an invitation); the worker that mails it draws the token and stores only its
 * SHA-256, so the token exists in the message alone: never in a job, a log line or the database.
 */
@Entity({ name: 'account_tokens' })
@Check('chk_account_tokens_purpose', `"purpose" IN (${TOKEN_PURPOSES.map((purpose) => `'${purpose}'`).join(', ')})`)
export class AccountTokenEntity {
  /** `tok_` + 24 hex characters. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  purpose: TokenPurpose;

  /**
   * The user it is for; null for an invitation (no user yet) and for a reset asked for an e-mail
   * no account has (recorded all the same, so the answer takes the same work either way).
   */
  @Index('idx_account_tokens_user_id')
  @Column({ name: 'user_id', type: 'text', nullable: true })
  userId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('idx_account_tokens_invitation_id')
  @Column({ name: 'invitation_id', type: 'text', nullable: true })
  invitationId: string | null;

  @ManyToOne(() => InvitationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'invitation_id' })
  invitation?: InvitationEntity;

  /** Where the link goes. */
  @Column({ type: 'text' })
  email: string;

  /** Set when the link is mailed. */
  @Index('uq_account_tokens_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64, nullable: true })
  tokenHash: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
