import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { newId, secureRandomBytes } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { BusinessStatesService } from '../business-states/business-states.service';
import { PoboBusinessEntity } from '../pobo-businesses/pobo-business.entity';
import { AgreementAcceptanceEntity } from './agreement-acceptance.entity';
import { AgreementLinkEntity } from './agreement-link.entity';
import { AGREEMENT_PAGE_PATH, MAX_USER_AGENT_LENGTH, TOKEN_PATTERN } from './agreement.constants';
import { TERMS_VERSION } from './agreement.terms';
import { AgreementAlreadyAcceptedError } from './agreements.errors';

export { AGREEMENT_PAGE_PATH } from './agreement.constants';

/** Why a link can no longer be used; each gets its own wording on the 410 page. */
export type LinkGoneReason = 'used' | 'voided' | 'expired';

export type LinkLookup =
  | { kind: 'not_found' }
  | { kind: 'gone'; reason: LinkGoneReason; businessName: string }
  | { kind: 'usable'; businessName: string; expiresAt: Date };

export type AcceptOutcome =
  | { kind: 'not_found' }
  | { kind: 'gone'; reason: LinkGoneReason; businessName: string }
  | { kind: 'stale_terms'; businessName: string }
  | { kind: 'accepted'; businessName: string; termsVersion: string; acceptedAt: Date };

export interface AcceptanceEvidence {
  termsVersion: unknown;
  ip: string;
  userAgent: string | undefined;
}

/**
 * Agreement links and their acceptance. Lock order, everywhere: the business row first, then
 * its links, so issuing a fresh link and accepting an old one serialise instead of deadlocking.
 */
@Injectable()
export class AgreementsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly states: BusinessStatesService,
  ) {}

  /**
   * A new link for the business, not yet stored: the row to insert and the URL to give out. The
   * token (256 random bits) appears only in the URL; the row keeps its keyed hash.
   */
  newLink(businessId: string): { row: Pick<AgreementLinkEntity, 'id' | 'businessId' | 'tokenHash' | 'expiresAt'>; url: string } {
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

  /** Issues a link for the business inside the caller's transaction and returns its URL. */
  async issueLink(manager: EntityManager, businessId: string): Promise<string> {
    const link = this.newLink(businessId);
    await manager.insert(AgreementLinkEntity, link.row);
    return link.url;
  }

  /**
   * Voids every unused link of the merchant's business and issues a fresh one. Null when the
   * business is unknown or another merchant's; refused once the agreement is accepted.
   */
  async reissueLink(merchantId: string, businessId: string): Promise<{ business: PoboBusinessEntity; url: string } | null> {
    return this.dataSource.transaction(async (manager) => {
      const business = await this.states.lockBusiness(manager, businessId);
      if (!business || business.merchantId !== merchantId) return null;
      if (business.agreementStatus === 'accepted') throw new AgreementAlreadyAcceptedError();
      await manager.update(
        AgreementLinkEntity,
        { businessId, usedAt: IsNull(), voidedAt: IsNull() },
        { voidedAt: () => 'now()' },
      );
      return { business, url: await this.issueLink(manager, businessId) };
    });
  }

  /** What the agreement page shows for a token (read only). */
  async inspect(token: string): Promise<LinkLookup> {
    const link = await this.findByToken(this.dataSource.manager, token);
    if (!link?.business) return { kind: 'not_found' };
    const reason = goneReason(link, link.business, new Date());
    if (reason) return { kind: 'gone', reason, businessName: link.business.businessName };
    return { kind: 'usable', businessName: link.business.businessName, expiresAt: link.expiresAt };
  }

  /**
   * Accepts the agreement through the link, once: the link is marked used, the business moves
   * to agreement `accepted` / KYB `not_started` (with history), and the evidence is stored, all
   * in one transaction. Of concurrent acceptances exactly one succeeds; the others see `used`.
   */
  async accept(token: string, evidence: AcceptanceEvidence): Promise<AcceptOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const found = await this.findByToken(manager, token);
      if (!found?.business) return { kind: 'not_found' } as const;
      // A link that is already unusable never becomes usable again: answer without locking.
      const early = goneReason(found, found.business, new Date());
      if (early) return { kind: 'gone', reason: early, businessName: found.business.businessName } as const;

      const business = await this.states.lockBusiness(manager, found.businessId);
      const link = await manager.findOne(AgreementLinkEntity, { where: { id: found.id }, lock: { mode: 'pessimistic_write' } });
      if (!business || !link) return { kind: 'not_found' } as const;
      const now = new Date();
      const reason = goneReason(link, business, now);
      if (reason) return { kind: 'gone', reason, businessName: business.businessName } as const;
      if (evidence.termsVersion !== TERMS_VERSION) return { kind: 'stale_terms', businessName: business.businessName } as const;

      await manager.update(AgreementLinkEntity, { id: link.id }, { usedAt: now });
      await this.states.apply(manager, business, { agreement: 'accepted', kyb: 'not_started' }, 'agreement_accepted', {
        agreementAcceptedAt: now,
      });
      await manager.insert(AgreementAcceptanceEntity, {
        businessId: business.id,
        linkId: link.id,
        termsVersion: TERMS_VERSION,
        ipAddress: evidence.ip,
        userAgent: (evidence.userAgent ?? '').slice(0, MAX_USER_AGENT_LENGTH),
        acceptedAt: now,
      });
      return { kind: 'accepted', businessName: business.businessName, termsVersion: TERMS_VERSION, acceptedAt: now } as const;
    });
  }

  hashToken(token: string): string {
    return createHmac('sha256', this.config.linkSigningSecret).update(token).digest('hex');
  }

  private async findByToken(manager: EntityManager, token: string): Promise<AgreementLinkEntity | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    return manager.findOne(AgreementLinkEntity, { where: { tokenHash: this.hashToken(token) }, relations: { business: true } });
  }
}

function goneReason(link: AgreementLinkEntity, business: Pick<PoboBusinessEntity, 'agreementStatus'>, now: Date): LinkGoneReason | null {
  if (link.usedAt) return 'used';
  if (link.voidedAt) return 'voided';
  // Cannot happen through this service (a fresh link voids the others, none is issued once
  // accepted), but an accepted agreement must never be accepted twice.
  if (business.agreementStatus === 'accepted') return 'used';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}
