import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { ApiTags } from '@nestjs/swagger';
import { ApiMerchantOperation } from '../../common/http/api-docs';
import { CurrentMerchant, MerchantRoute, MerchantPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import { CreateQuoteDto } from './dto/create-quote.dto';
import { QUOTE_EXAMPLE, QuoteDto, QuoteEnvelopeDto } from './dto/quote.response';
import { QuotesService } from './quotes.service';
import { QUOTES_PATH } from './international-intents.routes';

@ApiTags('International payment intents')
@Controller(QUOTES_PATH)
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @MerchantRoute('write')
  @Post()
  @Idempotent('optional', 201, { creates: 'qt' })
  @ApiMerchantOperation({
    operationId: 'createQuote',
    summary: 'Price a payment to a recipient abroad',
    description:
      'One option per route that serves the corridor, each with its exchange rate (NGN per unit of `currency`), its fee, and `sourceAmount`: what your NGN balance ' +
      'pays, fee included, rounded up to the kobo. A quote holds for 15 minutes and pays for one international payment intent.',
    success: {
      status: 201,
      type: QuoteEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Priced',
      example: { message: 'Quote created', response: QUOTE_EXAMPLE },
    },
    body: { type: CreateQuoteDto, example: { poboUserId: 'pobo_3f9a1c2b4d5e6f708192a3b4', destinationCountry: 'US', currency: 'USD', amount: 1000 } },
    errors: ['unsupported_corridor', 'resource_not_found', 'kyb_not_verified', ...idempotencyErrors('optional')],
  })
  @Answer('Quote created')
  create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreateQuoteDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<QuoteDto> {
    return this.quotes.create(merchant.merchantId, dto, claim);
  }

  @MerchantRoute()
  @Get(':quoteId')
  @ApiMerchantOperation({
    operationId: 'getQuote',
    summary: 'Retrieve a quote',
    success: { status: 200, type: QuoteEnvelopeDto, description: 'The quote', example: { message: 'Quote retrieved', response: QUOTE_EXAMPLE } },
    errors: ['quote_not_found', 'uri_too_long'],
  })
  @Answer('Quote retrieved')
  async get(@CurrentMerchant() merchant: MerchantPrincipal, @Param('quoteId') id: string): Promise<QuoteDto> {
    return await this.quotes.get(merchant.merchantId, id);
  }
}
