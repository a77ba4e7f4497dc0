import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { AgreementLinkEntity } from './agreement-link.entity';

/** Evidence of acceptance: which link, which terms, when, from where. One per business. */
@Entity({ name: 'agreement_acceptances' })
export class AgreementAcceptanceEntity {
  @PrimaryColumn({ name: 'business_id', type: 'text' })
  businessId: string;

  // Named, not imported: the business module depends on this one, never the other way.
  @OneToOne('PoboBusinessEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: object;

  @Column({ name: 'link_id', type: 'text' })
  linkId: string;

  @ManyToOne(() => AgreementLinkEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'link_id' })
  link?: AgreementLinkEntity;

  @Column({ name: 'terms_version', type: 'text' })
  termsVersion: string;

  @Column({ name: 'ip_address', type: 'text' })
  ipAddress: string;

  @Column({ name: 'user_agent', type: 'text' })
  userAgent: string;

  @CreateDateColumn({ name: 'accepted_at', type: 'timestamptz' })
  acceptedAt: Date;
}
