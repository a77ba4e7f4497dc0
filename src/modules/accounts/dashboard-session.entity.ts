import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * A dashboard session. The token lives only in the user's cookie; the row keeps its SHA-256, so a
 * copy of the table signs no one in, and a session ends by its row (logout, a password change, an
 * owner removing the user).
 */
@Entity({ name: 'dashboard_sessions' })
export class DashboardSessionEntity {
  /** `ses_` + 24 hex characters: how a user names a session to end it. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_dashboard_sessions_user_id')
  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('uq_dashboard_sessions_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Moved on by use (at most once a minute); idle past the idle timeout, the session is over. */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;

  /** The absolute end, fixed at login. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  @Column({ type: 'text' })
  ip: string;

  @Column({ name: 'user_agent', type: 'text' })
  userAgent: string;
}
