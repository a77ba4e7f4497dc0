import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { InternationalIntentListQuery } from './dto/international-intent-list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import {
  InternationalIntentDto,
  InternationalIntentEnvelopeDto,
  InternationalIntentListEnvelopeDto,
  TimelineEntryDto,
  TimelineEnvelopeDto,
} from './dto/international-intent.response';
import { InternationalIntentsService } from './international-intents.service';
import { DASHBOARD_INTERNATIONAL_INTENTS_PATH } from './international-intents.routes';

/** International payment intents for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_INTERNATIONAL_INTENTS_PATH)
export class InternationalIntentsDashboardController {
  constructor(private readonly service: InternationalIntentsService) {}

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListInternationalPaymentIntents',
      summary: 'International payment intents, newest first',
      unsafe: false,
      success: { status: 200, type: InternationalIntentListEnvelopeDto, description: 'A page of international payment intents', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('International payment intents retrieved')
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: InternationalIntentListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InternationalIntentDto[]> {
    return sendPage(reply, await this.service.list(user.merchantId, query, DASHBOARD_INTERNATIONAL_INTENTS_PATH));
  }

  @Get(':intentId')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetInternationalPaymentIntent',
      summary: 'One international payment intent',
      unsafe: false,
      success: { status: 200, type: InternationalIntentEnvelopeDto, description: 'The international payment intent' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('International payment intent retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('intentId') id: string): Promise<InternationalIntentDto> {
    return this.service.get(user.merchantId, id);
  }

  @Get(':intentId/timeline')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetInternationalPaymentIntentTimeline',
      summary: "An international payment intent's moves through the pipeline, oldest first",
      description: 'Each leg as it started and was confirmed (bridge, then payout), then the settlement or the rejection, with its cause and time.',
      unsafe: false,
      success: { status: 200, type: TimelineEnvelopeDto, description: 'The timeline' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Timeline retrieved')
  timeline(@CurrentUser() user: DashboardPrincipal, @Param('intentId') id: string): Promise<TimelineEntryDto[]> {
    return this.service.timeline(user.merchantId, id);
  }
}
