import { Body, Controller, Param, Post } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { PAYMENT_INTENT_TEST_HELPERS_PATH } from './payment-intents.routes';
import { ApiTags } from '@nestjs/swagger';
import { ApiMerchantOperation } from '../../common/http/api-docs';
import { CurrentMerchant, MerchantRoute, MerchantPrincipal, TestModeOnly } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import { FundPaymentIntentDto } from './dto/create-payment-intent.dto';
import { FundPaymentIntentEnvelopeDto, FundPaymentIntentResultDto } from './dto/payment-intent.response';
import { PaymentIntentsService } from './payment-intents.service';

@ApiTags('Test helpers')
@TestModeOnly()
@Controller(PAYMENT_INTENT_TEST_HELPERS_PATH)
export class TestHelpersController {
  constructor(private readonly intents: PaymentIntentsService) {}

  @MerchantRoute('write')
  @Post(':paymentIntentId/fund')
  @Idempotent('optional', 202)
  @ApiMerchantOperation({
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
    body: { type: FundPaymentIntentDto, example: { amount: 50000, senderBankName: 'Guaranty Trust Bank', senderAccountNumber: '0123456789' } },
    errors: ['resource_not_found', 'route_not_found', 'uri_too_long', ...idempotencyErrors('optional')],
  })
  @Answer('Test transfer sent')
  fund(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('paymentIntentId') id: string,
    @Body() dto: FundPaymentIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<FundPaymentIntentResultDto> {
    return this.intents.fund(merchant.merchantId, id, dto, claim);
  }
}
