import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { PaymentIntentDto, PaymentIntentEnvelopeDto, PaymentIntentListEnvelopeDto } from './dto/payment-intent.response';
import { PaymentIntentsService } from './payment-intents.service';
import { DASHBOARD_PAYMENT_INTENTS_PATH } from './payment-intents.routes';

/** Payment intents for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_PAYMENT_INTENTS_PATH)
export class PaymentIntentsDashboardController {
  constructor(private readonly service: PaymentIntentsService) {}

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListPaymentIntents',
      summary: 'Payment intents, newest first',
      unsafe: false,
      success: { status: 200, type: PaymentIntentListEnvelopeDto, description: 'A page of payment intents', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Payment intents retrieved')
  async list(@CurrentUser() user: DashboardPrincipal, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<PaymentIntentDto[]> {
    return sendPage(reply, await this.service.list(user.merchantId, query, DASHBOARD_PAYMENT_INTENTS_PATH));
  }

  @Get(':paymentIntentId')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetPaymentIntent',
      summary: 'One payment intent',
      unsafe: false,
      success: { status: 200, type: PaymentIntentEnvelopeDto, description: 'The payment intent' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Payment intent retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('paymentIntentId') id: string): Promise<PaymentIntentDto> {
    return this.service.get(user.merchantId, id);
  }
}
