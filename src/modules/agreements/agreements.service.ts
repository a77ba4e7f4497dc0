import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId, secureRandomBytes } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { AgreementLinkEntity } from './agreement-link.entity';
import { AGREEMENT_PAGE_PATH, MAX_USER_AGENT_LENGTH, TOKEN_PATTERN } from './agreement.constants';
import { TERMS_VERSION } from './agreement.terms';
import type { StatementPart } from '../../common/persistence/statement-part';
import { AgreementsRepository, NewAgreementLink } from './agreements.repository';

/** Why a link can no longer be used; each gets its own wording on the 410 page. */
export type LinkGoneReason = 'used' | 'voided' | 'expired';

export interface AcceptanceEvidence {
  ip: string;
  userAgent: string | undefined;
}

/**
 * Agreement links and acceptance evidence: the owner of `agreement_links` and
 * `agreement_acceptances`. It knows nothing of a business's statuses; the business module
 * combines both (lock order, everywhere: the business row first, then its links).
 */
@Injectable()
export class AgreementsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: AgreementsRepository,
  ) {}

  /**
   * A first link for a business being created: the statement part that stores it (see
   * `AgreementsRepository.linkInsertPart`) and the URL to give out. The token (256 random bits)
   * appears only in the URL; the row keeps its keyed hash.
   */
  firstLink(businessId: string): { insert: StatementPart; url: string } {
    const { row, url } = this.newLink(businessId);
    return { insert: this.repository.linkInsertPart(row), url };
  }

  /** Voids every unused link of the (locked) business and stores a fresh one; returns its URL. */
  async replaceLinks(manager: EntityManager, businessId: string): Promise<string> {
    const { row, url } = this.newLink(businessId);
    await this.repository.replaceLinks(manager, row);
    return url;
  }

  /** The link a token names, or null; read without a lock. */
  async findByToken(token: string): Promise<AgreementLinkEntity | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    return this.repository.findByTokenHash(this.hashToken(token));
  }

  lockLink(manager: EntityManager, linkId: string): Promise<AgreementLinkEntity | null> {
    return this.repository.lock(manager, linkId);
  }

  /** Why the link cannot be used now, or null when it can. */
  goneReason(link: AgreementLinkEntity, now: Date): LinkGoneReason | null {
    if (link.usedAt) return 'used';
    if (link.voidedAt) return 'voided';
    if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
    return null;
  }

  /** Marks the (locked) link used and stores the evidence of acceptance, in the caller's transaction. */
  async recordAcceptance(manager: EntityManager, link: AgreementLinkEntity, evidence: AcceptanceEvidence, acceptedAt: Date): Promise<void> {
    await this.repository.recordAcceptance(manager, {
      businessId: link.businessId,
      linkId: link.id,
      termsVersion: TERMS_VERSION,
      ipAddress: evidence.ip,
      userAgent: (evidence.userAgent ?? '').slice(0, MAX_USER_AGENT_LENGTH),
      acceptedAt,
    });
  }

  private newLink(businessId: string): { row: NewAgreementLink; url: string } {
    const token = secureRandomBytes(32).toString('base64url');
    return {
      row: {
        id: newId('agl'),
        businessId,
        tokenHash: this.hashToken(token),
        expiresAt: new Date(Date.now() + this.config.agreementLinkTtlSeconds * 1000),
      },
      url: `${this.config.publicBaseUrl}${AGREEMENT_PAGE_PATH}/${token}`,
    };
  }

  private hashToken(token: string): string {
    return createHmac('sha256', this.config.linkSigningSecret).update(token).digest('hex');
  }
}
