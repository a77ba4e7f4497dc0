import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { AuditLog, auditActor } from '../audit';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, REPLAYED_HEADER } from '../idempotency';
import { ConfirmPaymentIntentDto, PaymentIntentListQuery } from './dto/create-payment-intent.dto';
import { PaymentIntentDto, PaymentIntentEnvelopeDto, PaymentIntentListEnvelopeDto, CONFIRM_ERRORS } from './dto/payment-intent.response';
import { PaymentIntentsService } from './payment-intents.service';
import { DASHBOARD_PAYMENT_INTENTS_PATH } from './payment-intents.routes';

/** Payment intents for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_PAYMENT_INTENTS_PATH)
export class PaymentIntentsDashboardController {
  constructor(
    private readonly service: PaymentIntentsService,
    private readonly audit: AuditLog,
  ) {}

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
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: PaymentIntentListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PaymentIntentDto[]> {
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

  @Post(':paymentIntentId/confirm')
  @Idempotent('required', 200)
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'dashboardConfirmPaymentIntent',
      summary: "Confirm a funded payment intent: credits the merchant's balance once (owners)",
      description: "The same operation as the merchant API's, with its Idempotency-Key; recorded in the audit log with the confirmation.",
      unsafe: true,
      success: { status: 200, type: PaymentIntentEnvelopeDto, headers: REPLAYED_HEADER, description: 'Confirmed, `succeeded`' },
      body: { type: ConfirmPaymentIntentDto, example: {}, optional: true },
      errors: [...CONFIRM_ERRORS],
    },
  )
  @Answer('Payment intent confirmed')
  confirm(
    @CurrentUser() user: DashboardPrincipal,
    @Param('paymentIntentId') id: string,
    @Body() _body: ConfirmPaymentIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
    @Req() request: FastifyRequest,
  ): Promise<PaymentIntentDto> {
    this.audit.recordWithChange(claim, auditActor(user, request.ip), { action: 'payment_intent.confirmed', objectId: id });
    return this.service.confirm(user.merchantId, id, claim);
  }
}
