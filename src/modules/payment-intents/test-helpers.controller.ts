import { Body, Controller, Param } from '@nestjs/common';
import { DASHBOARD_PAYMENT_INTENT_TEST_HELPERS_PATH, PAYMENT_INTENT_TEST_HELPERS_PATH } from './payment-intents.routes';
import { MerchantId, TestModeOnly } from '../auth';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { Operation } from '../operations';
import { FundPaymentIntentDto } from './dto/create-payment-intent.dto';
import { FundPaymentIntentEnvelopeDto, FundPaymentIntentResultDto } from './dto/payment-intent.response';
import { PaymentIntentsService } from './payment-intents.service';

/** Test helpers: sandbox money only, so a dashboard's developers may use them as well as its owners; a live-mode service answers 404. */
@TestModeOnly()
@Controller()
export class TestHelpersController {
  constructor(private readonly intents: PaymentIntentsService) {}

  @Operation<FundPaymentIntentDto>({
    method: 'POST',
    merchant: { path: `${PAYMENT_INTENT_TEST_HELPERS_PATH}/:paymentIntentId/fund`, tag: 'Test helpers', permission: 'write' },
    dashboard: {
      path: `${DASHBOARD_PAYMENT_INTENT_TEST_HELPERS_PATH}/:paymentIntentId/fund`,
      tag: 'Dashboard: test helpers',
      roles: ['owner', 'developer'],
      idempotency: 'required',
      audit: ({ params, body }) => ({ action: 'payment_intent.test_funded', objectId: params.paymentIntentId, details: { amount: body?.amount ?? null } }),
    },
    idempotent: { mode: 'optional', status: 202 },
    answer: 'Test transfer sent',
    operationId: 'fundPaymentIntentForTest',
    summary: 'Test keys only: send a transfer into the intent’s account through the sandbox bank rail',
    description:
      'The sandbox rail sends the transfer and notifies the service by signed callback, as a real rail does; the intent shows the payment within a few seconds. ' +
      "Defaults: the intent's amount and expected sender, else a fixed test sender. A live key gets 404.",
    success: {
      status: 202,
      headers: REPLAYED_HEADER,
      type: FundPaymentIntentEnvelopeDto,
      description: 'The rail accepted the transfer',
      example: {
        message: 'Test transfer sent',
        response: { transferId: 'trf_0a1b2c3d4e5f60718293a4b5', paymentIntentId: 'pi_9f8e7d6c5b4a39281706f5e4', amount: 50000 },
      },
    },
    body: { type: FundPaymentIntentDto, example: { amount: 50000, senderBankName: 'Guaranty Trust Bank', senderAccountNumber: '0123456789' }, optional: true },
    errors: ['resource_not_found', 'route_not_found', 'uri_too_long'],
  })
  fund(
    @MerchantId() merchantId: string,
    @Param('paymentIntentId') id: string,
    @Body() dto: FundPaymentIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<FundPaymentIntentResultDto> {
    return this.intents.fund(merchantId, id, dto, claim);
  }
}
