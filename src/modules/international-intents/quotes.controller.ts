import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { CreateQuoteDto } from './dto/create-quote.dto';
import { QUOTE_EXAMPLE, QuoteDto, QuoteEnvelopeDto, QuoteListEnvelopeDto } from './dto/quote.response';
import { QuotesService } from './quotes.service';
import { DASHBOARD_QUOTES_PATH, QUOTES_PATH } from './international-intents.routes';

@Controller()
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Operation({
    method: 'POST',
    merchant: { path: QUOTES_PATH, tag: 'International payment intents', permission: 'write' },
    idempotent: { mode: 'optional', status: 201, creates: 'qt' },
    answer: 'Quote created',
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
    errors: ['unsupported_corridor', 'resource_not_found', 'kyb_not_verified'],
  })
  create(@MerchantId() merchantId: string, @Body() dto: CreateQuoteDto, @IdempotencyContext() claim: IdempotencyClaim | undefined): Promise<QuoteDto> {
    return this.quotes.create(merchantId, dto, claim);
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${QUOTES_PATH}/:quoteId`, tag: 'International payment intents' },
    dashboard: { path: `${DASHBOARD_QUOTES_PATH}/:quoteId`, tag: 'Dashboard: money' },
    answer: 'Quote retrieved',
    operationId: 'getQuote',
    summary: 'Retrieve a quote',
    success: { status: 200, type: QuoteEnvelopeDto, description: 'The quote', example: { message: 'Quote retrieved', response: QUOTE_EXAMPLE } },
    errors: ['quote_not_found', 'uri_too_long'],
  })
  async get(@MerchantId() merchantId: string, @Param('quoteId') id: string): Promise<QuoteDto> {
    return await this.quotes.get(merchantId, id);
  }

  @Operation({
    method: 'GET',
    dashboard: { path: DASHBOARD_QUOTES_PATH, tag: 'Dashboard: money' },
    operationId: 'dashboardListQuotes',
    summary: 'Quotes, newest first',
    answer: 'Quotes retrieved',
    success: { status: 200, type: QuoteListEnvelopeDto, description: 'A page of quotes', headers: LIST_HEADERS },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(@MerchantId() merchantId: string, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<QuoteDto[]> {
    return sendPage(reply, await this.quotes.listQuotes(merchantId, query));
  }
}
