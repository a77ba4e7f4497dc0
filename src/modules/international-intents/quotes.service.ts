import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceUnavailableError, ValidationFailedError } from '../../common/errors/app-error';
import { isId, newId } from '../../common/ids/ids';
import { listPage, Page, PageRequest } from '../../common/paging';
import { quoteSourceAmount } from './fx';
import { toMinorUnits } from '../../common/money/money';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { RATE_PROVIDER, RateProvider } from '../cross-border-rails';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { PoboBusinessesService } from '../pobo-businesses';
import { CreateQuoteDto } from './dto/create-quote.dto';
import { QuoteDto } from './dto/quote.response';
import { KybNotVerifiedError, QuoteNotFoundError, UnsupportedCorridorError } from './international-intents.errors';
import { InternationalIntentsRepository } from './international-intents.repository';
import { StoredQuoteOption } from './quote.entity';
import { mapQuote } from './quote.mapper';

/** How long a quote's prices hold. */
export const QUOTE_TTL_MS = 15 * 60_000;

@Injectable()
export class QuotesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(RATE_PROVIDER) private readonly rates: RateProvider,
    private readonly repository: InternationalIntentsRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Prices every route of the corridor from the rate provider's current rates; one insert (with the key's answer, when one was sent). */
  async create(merchantId: string, dto: CreateQuoteDto, claim?: IdempotencyClaim): Promise<QuoteDto> {
    const business = await this.businesses.findOwned(merchantId, dto.poboUserId);
    // Refused here rather than only at the intent: a price for a business that cannot pay is of no use.
    if (business.kybStatus !== 'verified') throw new KybNotVerifiedError();
    const amount = toMinorUnits(dto.amount, dto.currency)!;
    const options = (await this.corridorRates(dto.destinationCountry, dto.currency)).map((rate): StoredQuoteOption => {
      const price = quoteSourceAmount({
        destinationMinor: amount,
        destinationCurrency: dto.currency,
        rate: rate.rate,
        fixedFeeMinor: rate.fixedFee,
        feeBps: rate.feeBps,
      });
      if (!price) throw new ValidationFailedError([{ field: 'amount', message: 'costs more than the largest amount a payment may carry' }], 'Amount too large');
      return {
        id: newId('qo'),
        routeType: rate.routeType,
        exchangeRate: rate.rate,
        convertedAmount: price.convertedMinor,
        fee: price.feeMinor,
        sourceAmount: price.sourceMinor,
      };
    });
    // One clock for both: the quote holds exactly QUOTE_TTL_MS from its creation.
    const createdAt = new Date();
    const quote = {
      id: newId('qt'),
      merchantId,
      poboUserId: dto.poboUserId,
      destinationCountry: dto.destinationCountry,
      currency: dto.currency,
      amount: String(amount),
      options,
      expiresAt: new Date(createdAt.getTime() + QUOTE_TTL_MS),
      createdAt,
    };
    const insert = async (manager: EntityManager) => {
      await this.repository.insertQuote(manager, quote);
      return mapQuote(quote);
    };
    return claim ? this.idempotency.commit(claim, insert) : this.dataSource.transaction(insert);
  }

  async get(merchantId: string, id: string): Promise<QuoteDto> {
    const row = isId('qt', id) ? await this.repository.findOwnedQuote(merchantId, id) : undefined;
    if (!row) throw new QuoteNotFoundError();
    return mapQuote(row);
  }

  /** The merchant's quotes, newest first (the dashboard's list: the merchant API reads one by id). */
  listQuotes(merchantId: string, query: PageRequest): Promise<Page<QuoteDto>> {
    return listPage(
      query,
      'qt',
      (limit, after) => this.repository.listQuotes(merchantId, limit, after),
      mapQuote,
      (item) => item.quoteId,
    );
  }

  private async corridorRates(country: string, currency: string) {
    try {
      const rates = await this.rates.rates(country, currency, { timeoutMs: this.config.providerTimeoutMs, retries: 1 });
      if (rates.length === 0) throw new UnsupportedCorridorError(country, currency);
      return rates;
    } catch (err) {
      if (err instanceof ProviderError) throw new ServiceUnavailableError('The rate provider is unavailable; retry shortly');
      throw err;
    }
  }
}
