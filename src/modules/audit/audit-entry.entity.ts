import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';

/**
 * One change made from the dashboard (or a sign-in), written in the change's own transaction. The
 * user's e-mail is copied: the entry outlives the user's removal from the team.
 */
@Entity({ name: 'audit_log' })
@Index('idx_audit_log_merchant_seq', ['merchantId', 'seq'])
@Index('idx_audit_log_merchant_user_seq', ['merchantId', 'userId', 'seq'])
@Index('idx_audit_log_merchant_action_seq', ['merchantId', 'action', 'seq'])
export class AuditEntryEntity extends MerchantOwnedEntity {
  @Column({ name: 'user_id', type: 'text', nullable: true })
  userId: string | null;

  @Column({ name: 'user_email', type: 'text', nullable: true })
  userEmail: string | null;

  /** `<object>.<verb>`, e.g. `api_key.rolled`. */
  @Column({ type: 'text' })
  action: string;

  /** The id of what changed (`key_…`, `usr_…`, `inv_…`), when something did. */
  @Column({ name: 'object_id', type: 'text', nullable: true })
  objectId: string | null;

  @Column({ type: 'text' })
  ip: string;

  /** What the change was, beyond its object: a new role, an expiry. Never a secret. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, string | number | boolean | null>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
