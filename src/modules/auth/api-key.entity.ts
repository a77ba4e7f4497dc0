import { Check, Column, CreateDateColumn, Entity, Index } from 'typeorm';
import type { ApiKeyPermission } from './api-key-permissions';
import { MerchantOwnedEntity } from './merchant-owned.entity';

/** An API key is stored only as the SHA-256 of the full key; the key itself is shown once. */
@Entity({ name: 'api_keys' })
@Check('chk_api_keys_permissions', `permissions <@ ARRAY['read', 'write', 'move_money']::text[] AND cardinality(permissions) > 0`)
@Index('idx_api_keys_merchant_seq', ['merchantId', 'seq'])
export class ApiKeyEntity extends MerchantOwnedEntity {
  @Index('uq_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  /** Recognisable but useless fragment (`mk_test_…abcd`) for dashboards and audit logs. */
  @Column({ name: 'key_hint', type: 'text' })
  keyHint: string;

  /** What people call the key; the operator CLI's keys are `Default`. */
  @Column({ type: 'text', default: 'Default' })
  name: string;

  /** What it may do (`API_KEY_PERMISSIONS`); keys made before permissions existed, and the operator CLI's, hold all three. */
  @Column({ type: 'text', array: true, default: () => "'{read,write,move_money}'" })
  permissions: ApiKeyPermission[];

  /** Who made it from the dashboard (null: the operator CLI), copied so it outlives the user. */
  @Column({ name: 'created_by_user_id', type: 'text', nullable: true })
  createdByUserId: string | null;

  @Column({ name: 'created_by_email', type: 'text', nullable: true })
  createdByEmail: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** A rolled key keeps working until then (null: until revoked). */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
