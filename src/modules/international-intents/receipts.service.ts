import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { PoboBusinessesService } from '../pobo-businesses';
import { hasReceipt, hasTelex } from './international-intent.mapper';
import { InternationalIntentsRepository } from './international-intents.repository';
import { renderReceiptPage, renderTelexPage } from './receipt.html';

/** A receipt token: 128 random bits, base64url without padding. */
export const RECEIPT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The one answer to every link that leads to no page: a malformed or unknown token, a payment not
 * settled yet (receipt), one without a telex. Nothing is learnt about a token from it.
 */
export class ReceiptNotFoundError extends AppError {
  constructor() {
    super('resource_not_found', 'Receipt not found');
  }
}

/**
 * Receipts and telexes of international payments, behind their unguessable links: the token in
 * the URL is the credential, so these pages need no login and answer only what it names.
 */
@Injectable()
export class ReceiptsService {
  constructor(
    private readonly intents: InternationalIntentsRepository,
    private readonly businesses: PoboBusinessesService,
  ) {}

  /** The receipt of a settled payment, as an HTML page. */
  async receipt(token: string): Promise<string> {
    const intent = await this.find(token);
    if (!intent || !hasReceipt(intent)) throw new ReceiptNotFoundError();
    const business = await this.businesses.findById(intent.poboUserId);
    // The intent's business is the merchant's own, and businesses are never deleted: anything else is a bug, not a 404.
    if (!business || business.merchantId !== intent.merchantId)
      throw new Error(`receipt: business ${intent.poboUserId} of intent ${intent.id} not found for its merchant`);
    return renderReceiptPage({ intent, sender: { name: business.businessName, country: business.country } });
  }

  /** The payout confirmation of a SWIFT payment (from `withdrawal_confirmed` on), as an HTML page. */
  async telex(token: string): Promise<string> {
    const intent = await this.find(token);
    if (!intent || !hasTelex(intent) || !intent.payoutConfirmation) throw new ReceiptNotFoundError();
    return renderTelexPage({ intent, confirmation: intent.payoutConfirmation });
  }

  /** A token of the wrong shape is refused before any query. */
  private find(token: string) {
    return RECEIPT_TOKEN_PATTERN.test(token) ? this.intents.findByReceiptToken(token) : Promise.resolve(undefined);
  }
}
