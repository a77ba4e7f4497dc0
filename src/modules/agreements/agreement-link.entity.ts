import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * One agreement link. The token in the URL is never stored: only its keyed hash, so a copy of
 * the database cannot be turned into working links. A link is usable while it is neither
 * expired, used nor voided; issuing a fresh link voids the previous ones.
 */
@Entity({ name: 'agreement_links' })
export class AgreementLinkEntity {
  /** `agl_` + 24 hex characters. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('idx_agreement_links_business_id')
  @Column({ name: 'business_id', type: 'text' })
  businessId: string;

  // Named, not imported: the business module depends on this one, never the other way.
  @ManyToOne('PoboBusinessEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: object;

  @Index('uq_agreement_links_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'voided_at', type: 'timestamptz', nullable: true })
  voidedAt: Date | null;
}
