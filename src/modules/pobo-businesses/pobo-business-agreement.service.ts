import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { AcceptanceEvidence, AgreementAlreadyAcceptedError, AgreementLinkEntity, AgreementsService, LinkGoneReason, TERMS_VERSION } from '../agreements';
import { PoboBusinessDto } from './dto/pobo-business.response';
import { PoboBusinessEntity } from './pobo-business.entity';
import { mapPoboBusiness } from './pobo-business.mapper';
import { PoboBusinessStates } from './pobo-business-states.service';
import { PoboBusinessesService } from './pobo-businesses.service';

export type LinkLookup =
  { kind: 'not_found' } | { kind: 'gone'; reason: LinkGoneReason; businessName: string } | { kind: 'usable'; businessName: string; expiresAt: Date };

export type AcceptOutcome =
  | { kind: 'not_found' }
  | { kind: 'gone'; reason: LinkGoneReason; businessName: string }
  | { kind: 'stale_terms'; businessName: string }
  | { kind: 'accepted'; businessName: string; termsVersion: string; acceptedAt: Date };

/**
 * A business's agreement: fresh links for the merchant, and acceptance through a link. Combines
 * the agreements module (links, evidence) with the business's statuses, locking the business
 * row first and its link second, so a fresh link and an acceptance serialise.
 */
@Injectable()
export class PoboBusinessAgreementService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly businesses: PoboBusinessesService,
    private readonly states: PoboBusinessStates,
    private readonly agreements: AgreementsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Voids the business's earlier links and answers with a fresh one (409 once accepted). */
  async issueLink(merchantId: string, businessId: string, claim?: IdempotencyClaim): Promise<PoboBusinessDto> {
    const owned = await this.businesses.findOwned(merchantId, businessId);
    return this.idempotency.commit(claim, async (manager) => {
      const business = (await this.states.lock(manager, owned.id))!;
      if (business.agreementStatus === 'accepted') throw new AgreementAlreadyAcceptedError();
      const url = await this.agreements.replaceLinks(manager, business.id);
      return mapPoboBusiness(business, url);
    });
  }

  /** What the agreement page shows for a token (read only). */
  async inspect(token: string): Promise<LinkLookup> {
    const link = await this.agreements.findByToken(token);
    const business = link && (await this.businessOf(link));
    if (!link || !business) return { kind: 'not_found' };
    const reason = this.goneReason(link, business, new Date());
    if (reason) return { kind: 'gone', reason, businessName: business.businessName };
    return { kind: 'usable', businessName: business.businessName, expiresAt: link.expiresAt };
  }

  /**
   * Accepts the agreement through the link, once: the link is marked used, the business moves
   * to agreement `accepted` / KYB `not_started` (with history), and the evidence is stored, all
   * in one transaction. Of concurrent acceptances exactly one succeeds; the others see `used`.
   */
  async accept(token: string, termsVersion: unknown, evidence: AcceptanceEvidence): Promise<AcceptOutcome> {
    const found = await this.agreements.findByToken(token);
    if (!found) return { kind: 'not_found' };
    // A link that is already unusable never becomes usable again: answer without locking.
    if (found.usedAt || found.voidedAt) return this.refusal(found);
    return this.dataSource.transaction(async (manager) => {
      const business = await this.states.lock(manager, found.businessId);
      const link = await this.agreements.lockLink(manager, found.id);
      if (!business || !link) return { kind: 'not_found' } as const;
      const now = new Date();
      const reason = this.goneReason(link, business, now);
      if (reason) return { kind: 'gone', reason, businessName: business.businessName } as const;
      if (termsVersion !== TERMS_VERSION) return { kind: 'stale_terms', businessName: business.businessName } as const;

      await this.agreements.recordAcceptance(manager, link, evidence, now);
      await this.states.apply(manager, business, { agreement: 'accepted', kyb: 'not_started' }, 'agreement_accepted', { agreementAcceptedAt: now });
      return { kind: 'accepted', businessName: business.businessName, termsVersion: TERMS_VERSION, acceptedAt: now } as const;
    });
  }

  private async refusal(link: AgreementLinkEntity): Promise<AcceptOutcome> {
    const business = await this.businessOf(link);
    if (!business) return { kind: 'not_found' };
    return { kind: 'gone', reason: this.goneReason(link, business, new Date()) ?? 'used', businessName: business.businessName };
  }

  /** The business a link belongs to: the link is the credential here, not an API key. */
  private businessOf(link: AgreementLinkEntity): Promise<PoboBusinessEntity | null> {
    return this.businesses.findById(link.businessId);
  }

  private goneReason(link: AgreementLinkEntity, business: Pick<PoboBusinessEntity, 'agreementStatus'>, now: Date): LinkGoneReason | null {
    // Cannot happen through this service (a fresh link voids the others, none is issued once
    // accepted), but an accepted agreement must never be accepted twice.
    return this.agreements.goneReason(link, now) ?? (business.agreementStatus === 'accepted' ? 'used' : null);
  }
}
