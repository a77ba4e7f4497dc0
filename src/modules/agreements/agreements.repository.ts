import { Injectable } from '@nestjs/common';
import type { StatementPart } from '../../database/statement-part';
import { AgreementLinkEntity } from './agreement-link.entity';

export type NewAgreementLink = Pick<AgreementLinkEntity, 'id' | 'businessId' | 'tokenHash' | 'expiresAt'>;

/** SQL of `agreement_links` that does not go through TypeORM. */
@Injectable()
export class AgreementsRepository {
  /**
   * The INSERT of a first link, for the business module to run inside its create statement as a
   * CTE (one round trip for a create). Parameters start at `$firstParam`; the text depends only
   * on that number, so the composed statement can stay a named prepared statement.
   */
  linkInsertPart(link: NewAgreementLink, firstParam: number): StatementPart {
    const p = (i: number) => `$${firstParam + i}`;
    return {
      text: `INSERT INTO agreement_links (id, business_id, token_hash, expires_at) VALUES (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)})`,
      values: [link.id, link.businessId, link.tokenHash, link.expiresAt],
    };
  }
}
