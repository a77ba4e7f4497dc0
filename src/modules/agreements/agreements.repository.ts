import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import type { StatementPart } from '../../common/persistence/statement-part';
import { AgreementAcceptanceEntity } from './agreement-acceptance.entity';
import { AgreementLinkEntity } from './agreement-link.entity';

export type NewAgreementLink = Pick<AgreementLinkEntity, 'id' | 'businessId' | 'tokenHash' | 'expiresAt'>;
export type NewAgreementAcceptance = Pick<AgreementAcceptanceEntity, 'businessId' | 'linkId' | 'termsVersion' | 'ipAddress' | 'userAgent' | 'acceptedAt'>;

/** The only reader and writer of `agreement_links` and `agreement_acceptances`. */
@Injectable()
export class AgreementsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The INSERT of a first link, for the business module to run inside its create statement (see `StatementPart`). */
  linkInsertPart(link: NewAgreementLink): StatementPart {
    return {
      text: 'agreement_link AS (INSERT INTO agreement_links (id, business_id, token_hash, expires_at) VALUES ($1, $2, $3, $4))',
      values: [link.id, link.businessId, link.tokenHash, link.expiresAt],
    };
  }

  /** Voids every unused link of the business and stores `link`, in the caller's transaction. */
  async replaceLinks(manager: EntityManager, link: NewAgreementLink): Promise<void> {
    await manager.update(AgreementLinkEntity, { businessId: link.businessId, usedAt: IsNull(), voidedAt: IsNull() }, { voidedAt: () => 'now()' });
    await manager.insert(AgreementLinkEntity, link);
  }

  findByTokenHash(tokenHash: string): Promise<AgreementLinkEntity | null> {
    return this.dataSource.getRepository(AgreementLinkEntity).findOneBy({ tokenHash });
  }

  lock(manager: EntityManager, linkId: string): Promise<AgreementLinkEntity | null> {
    return manager.findOne(AgreementLinkEntity, { where: { id: linkId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Marks the link used and stores the evidence, in the caller's transaction. */
  async recordAcceptance(manager: EntityManager, acceptance: NewAgreementAcceptance): Promise<void> {
    await manager.update(AgreementLinkEntity, { id: acceptance.linkId }, { usedAt: acceptance.acceptedAt });
    await manager.insert(AgreementAcceptanceEntity, acceptance);
  }
}
