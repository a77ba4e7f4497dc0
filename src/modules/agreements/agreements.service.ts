import { createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { AgreementLinkEntity } from './agreement-link.entity';

/** Path of the agreement page; the token follows it. Part of every link already given out. */
export const AGREEMENT_PAGE_PATH = '/agreements';

@Injectable()
export class AgreementsService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Issues a link for the business inside the caller's transaction and returns its URL. The
   * token (256 random bits) appears only in the URL; the database keeps its keyed hash.
   */
  async issueLink(manager: EntityManager, businessId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await manager.insert(AgreementLinkEntity, {
      id: newId('agl'),
      businessId,
      tokenHash: this.hashToken(token),
      expiresAt: new Date(Date.now() + this.config.agreementLinkTtlSeconds * 1000),
    });
    return `${this.config.publicBaseUrl}${AGREEMENT_PAGE_PATH}/${token}`;
  }

  hashToken(token: string): string {
    return createHmac('sha256', this.config.linkSigningSecret).update(token).digest('hex');
  }
}
