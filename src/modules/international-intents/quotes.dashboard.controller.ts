import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { QuoteDto, QuoteEnvelopeDto, QuoteListEnvelopeDto } from './dto/quote.response';
import { QuotesService } from './quotes.service';
import { DASHBOARD_QUOTES_PATH } from './international-intents.routes';

/** Quotes for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_QUOTES_PATH)
export class QuotesDashboardController {
  constructor(private readonly quotes: QuotesService) {}

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListQuotes',
      summary: 'Quotes, newest first',
      unsafe: false,
      success: { status: 200, type: QuoteListEnvelopeDto, description: 'A page of quotes', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Quotes retrieved')
  async list(@CurrentUser() user: DashboardPrincipal, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<QuoteDto[]> {
    return sendPage(reply, await this.quotes.listQuotes(user.merchantId, query, DASHBOARD_QUOTES_PATH));
  }

  @Get(':quoteId')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetQuote',
      summary: 'One quote, with the price of each route',
      unsafe: false,
      success: { status: 200, type: QuoteEnvelopeDto, description: 'The quote' },
      errors: ['quote_not_found', 'uri_too_long'],
    },
  )
  @Answer('Quote retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('quoteId') id: string): Promise<QuoteDto> {
    return this.quotes.get(user.merchantId, id);
  }
}
