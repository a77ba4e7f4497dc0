import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';

/**
 * One Idempotency-Key of one merchant: who holds it (a short in-flight lock, separate from the
 * 24-hour retention), how far its operation got (the recovery point) and, once finished, the
 * answer every retry replays byte for byte.
 */
@Entity({ name: 'idempotency_keys' })
@Check('chk_idempotency_keys_status', `"status" IN ('in_progress', 'completed')`)
@Index('idx_idempotency_keys_expires_at', ['expiresAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @PrimaryColumn({ type: 'text' })
  key: string;

  /** SHA-256 (hex) of the method, the route with its path parameters and the canonical JSON body. */
  @Column({ type: 'text' })
  fingerprint: string;

  @Column({ type: 'text' })
  status: 'in_progress' | 'completed';

  /** The holder of the in-flight lock; every write of the operation's record names it. */
  @Column({ name: 'lock_token', type: 'uuid', nullable: true })
  lockToken: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /** `started`, or the last step of the operation that committed (see docs/decisions.md, Idempotency). */
  @Column({ name: 'recovery_point', type: 'text', default: 'started' })
  recoveryPoint: string;

  /** The resource the operation creates, fixed before its first external effect. */
  @Column({ name: 'resource_id', type: 'text', nullable: true })
  resourceId: string | null;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  /** The answer's exact bytes (UTF-8 JSON). */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
