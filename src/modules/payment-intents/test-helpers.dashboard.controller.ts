import { Body, Controller, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { AuditLog, auditActor } from '../audit';
import { CurrentUser, DashboardOperation, DashboardPrincipal, TestModeOnly } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import { FundPaymentIntentDto } from './dto/create-payment-intent.dto';
import { FundPaymentIntentEnvelopeDto, FundPaymentIntentResultDto } from './dto/payment-intent.response';
import { PaymentIntentsService } from './payment-intents.service';
import { DASHBOARD_PAYMENT_INTENT_TEST_HELPERS_PATH } from './payment-intents.routes';

/**
 * The dashboard's test-helpers panel: the merchant API's test helper with a session. Sandbox
 * money only, so developers may use it as well as owners; a live-mode service answers 404.
 */
@ApiTags('Dashboard: test helpers')
@TestModeOnly()
@Controller(DASHBOARD_PAYMENT_INTENT_TEST_HELPERS_PATH)
export class TestHelpersDashboardController {
  constructor(
    private readonly intents: PaymentIntentsService,
    private readonly audit: AuditLog,
  ) {}

  @Post(':paymentIntentId/fund')
  @Idempotent('required', 202)
  @DashboardOperation(
    { roles: ['owner', 'developer'] },
    {
      operationId: 'dashboardFundPaymentIntentForTest',
      summary: 'Test mode only: send a transfer into the intent’s account through the sandbox bank rail (owners, developers)',
      description:
        "The merchant API's test helper, with its Idempotency-Key (the panel makes one per click); recorded in the audit log. The intent shows the payment " +
        'once the rail’s signed callback arrives, within a few seconds.',
      unsafe: true,
      success: { status: 202, type: FundPaymentIntentEnvelopeDto, headers: REPLAYED_HEADER, description: 'The rail accepted the transfer' },
      body: { type: FundPaymentIntentDto, example: { amount: 50000 }, optional: true },
      errors: ['resource_not_found', 'route_not_found', 'uri_too_long', ...idempotencyErrors('required')],
    },
  )
  @Answer('Test transfer sent')
  fund(
    @CurrentUser() user: DashboardPrincipal,
    @Param('paymentIntentId') id: string,
    @Body() dto: FundPaymentIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
    @Req() request: FastifyRequest,
  ): Promise<FundPaymentIntentResultDto> {
    this.audit.recordWithChange(claim, auditActor(user, request.ip), {
      action: 'payment_intent.test_funded',
      objectId: id,
      details: { amount: dto.amount ?? null },
    });
    return this.intents.fund(user.merchantId, id, dto, claim);
  }
}
