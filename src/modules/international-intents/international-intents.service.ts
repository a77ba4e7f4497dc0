import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { KeyedSerializer } from '../../common/concurrency/keyed-serializer';
import { SOURCE_CURRENCY } from './fx';
import { listPage, Page } from '../../common/paging';
import { isId, newId, secureRandomBytes } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Outbox } from '../../jobs';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { LedgerService } from '../ledger';
import { PoboBusinessesService } from '../pobo-businesses';
import { CreateInternationalIntentDto } from './dto/create-international-intent.dto';
import { InternationalIntentDto, TimelineEntryDto } from './dto/international-intent.response';
import { InternationalIntentRecord, mapInternationalIntent, mapTimelineEntry } from './international-intent.mapper';
import { INTERNATIONAL_JOBS } from './international-intents.jobs';
import {
  InternationalIntentNotFoundError,
  KybNotVerifiedError,
  QuoteAlreadyUsedError,
  QuoteExpiredError,
  QuoteNotFoundError,
} from './international-intents.errors';
import { InternationalIntentStates } from './international-intent-states.service';
import { InternationalIntentsRepository, NewInternationalIntent } from './international-intents.repository';
import { reservationPosting } from './international-postings';
import { InternationalIntentListQuery } from './dto/international-intent-list.query';

@Injectable()
export class InternationalIntentsService {
  /** Reservations of one merchant lock its balance row: they queue here rather than on pooled connections. */
  private readonly reservations = new KeyedSerializer();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: InternationalIntentsRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly idempotency: IdempotencyService,
    private readonly ledger: LedgerService,
    private readonly outbox: Outbox,
    private readonly states: InternationalIntentStates,
  ) {}

  /**
   * One transaction: the quote is locked and checked, the business's KYB status read under a share
   * lock (a KYB decision landing meanwhile is waited for), the intent written, the quote marked used,
   * `sourceAmount` reserved from the available balance, the pipeline's first job put in the
   * outbox and the Idempotency-Key's answer stored. A refusal (any of the checks, or insufficient
   * funds) rolls all of it back: nothing is reserved and the quote stays usable.
   */
  create(merchantId: string, dto: CreateInternationalIntentDto, claim: IdempotencyClaim | undefined): Promise<InternationalIntentDto> {
    const id = claim?.resourceId ?? newId('ipi');
    return this.reservations.run(merchantId, () =>
      this.idempotency.commit(claim, async (manager) => {
        const intent = await this.insert(manager, id, merchantId, dto);
        await this.ledger.post(manager, reservationPosting(intent));
        await this.outbox.enqueue(manager, INTERNATIONAL_JOBS.advance, { intentId: id, from: 'pending' });
        await this.states.emit(manager, intent, ['international_payment_intent.created']);
        return mapInternationalIntent(intent, this.config.publicBaseUrl);
      }),
    );
  }

  async get(merchantId: string, id: string): Promise<InternationalIntentDto> {
    return mapInternationalIntent(await this.findOwned(merchantId, id), this.config.publicBaseUrl);
  }

  /** The intent's moves through the pipeline, oldest first: what the dashboard draws as the legs' timeline. */
  async timeline(merchantId: string, id: string): Promise<TimelineEntryDto[]> {
    const row = await this.findOwned(merchantId, id);
    return (await this.repository.timeline(row.id)).map(mapTimelineEntry);
  }

  /** The merchant's intent; an unknown id, or another merchant's, is 404 alike. */
  private async findOwned(merchantId: string, id: string): Promise<InternationalIntentRecord> {
    const row = isId('ipi', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new InternationalIntentNotFoundError();
    return row;
  }

  list(merchantId: string, query: InternationalIntentListQuery): Promise<Page<InternationalIntentDto>> {
    const filter = { status: query.status };
    return listPage(
      query,
      'ipi',
      (limit, after) => this.repository.list(merchantId, filter, limit, after),
      (row) => mapInternationalIntent(row, this.config.publicBaseUrl),
      (item) => item.intentId,
    );
  }

  /** The quote's checks, in the contract's order, then the intent at the chosen option's price. */
  private async insert(manager: EntityManager, id: string, merchantId: string, dto: CreateInternationalIntentDto): Promise<NewInternationalIntent> {
    const quote = isId('qt', dto.quoteId) ? await this.repository.lockOwnedQuote(manager, merchantId, dto.quoteId) : undefined;
    const option = quote?.options.find((candidate) => candidate.id === dto.quoteOptionId);
    if (!quote || !option) throw new QuoteNotFoundError();
    if (quote.usedByIntentId !== null) throw new QuoteAlreadyUsedError();
    if (quote.expired) throw new QuoteExpiredError();
    const business = await this.businesses.findOwnedForShare(manager, merchantId, quote.poboUserId);
    if (business.kybStatus !== 'verified') throw new KybNotVerifiedError();

    const now = new Date();
    const intent: NewInternationalIntent = {
      id,
      merchantId,
      poboUserId: quote.poboUserId,
      quoteId: quote.id,
      quoteOptionId: option.id,
      routeType: option.routeType,
      destinationCountry: quote.destinationCountry,
      amount: quote.amount,
      currency: quote.currency,
      sourceAmount: String(option.sourceAmount),
      sourceCurrency: SOURCE_CURRENCY,
      convertedAmount: String(option.convertedAmount),
      fee: String(option.fee),
      exchangeRate: option.exchangeRate,
      quoteExpiresAt: quote.expiresAt,
      recipientFullName: dto.recipientFullName,
      recipientEmail: dto.recipientEmail ?? null,
      bankCodeType: dto.bankCodeType,
      bankCode: dto.bankCode,
      accountNumber: dto.accountNumber ?? null,
      purposeOfTransfer: dto.purposeOfTransfer,
      paymentReference: dto.paymentReference ?? null,
      status: 'pending',
      adminNote: null,
      receiptToken: secureRandomBytes(16).toString('base64url'),
      processedAt: null,
      settledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.repository.insertIntent(manager, intent);
    return intent;
  }
}
