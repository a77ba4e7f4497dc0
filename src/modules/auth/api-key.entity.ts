import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from './merchant.entity';

/** An API key is stored only as the SHA-256 of the full key; the key itself is shown once. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  /** `key_` + 24 hex characters; what operators use to revoke a key. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_api_keys_merchant_id')
  @Column({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Index('uq_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  /** Recognisable but useless fragment (`mk_test_…abcd`) for dashboards and audit logs. */
  @Column({ name: 'key_hint', type: 'text' })
  keyHint: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
