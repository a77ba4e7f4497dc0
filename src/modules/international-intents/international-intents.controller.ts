import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiMerchantOperation, LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { InternationalIntentListQuery } from './dto/international-intent-list.query';
import { CurrentMerchant, MerchantRoute, MerchantPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import { CreateInternationalIntentDto } from './dto/create-international-intent.dto';
import {
  INTERNATIONAL_INTENT_EXAMPLE,
  InternationalIntentDto,
  InternationalIntentEnvelopeDto,
  InternationalIntentListEnvelopeDto,
} from './dto/international-intent.response';
import { InternationalIntentsService } from './international-intents.service';
import { INTERNATIONAL_INTENTS_PATH } from './international-intents.routes';

const SETTLED_EXAMPLE: InternationalIntentDto = {
  ...INTERNATIONAL_INTENT_EXAMPLE,
  status: 'settled',
  processedAt: '2026-11-20T09:52:01.000Z',
  settledAt: '2026-11-20T09:52:04.000Z',
  receiptUrl: 'https://api.example.com/receipts/Xq3v9PZkz0m5yT8rW2bLcA',
  telexUrl: 'https://api.example.com/receipts/Xq3v9PZkz0m5yT8rW2bLcA/telex',
  updatedAt: '2026-11-20T09:52:04.000Z',
};

@ApiTags('International payment intents')
@Controller(INTERNATIONAL_INTENTS_PATH)
export class InternationalIntentsController {
  constructor(private readonly intents: InternationalIntentsService) {}

  @MerchantRoute('move_money')
  @Post()
  @Idempotent('required', 201, { creates: 'ipi' })
  @ApiMerchantOperation({
    operationId: 'createInternationalPaymentIntent',
    summary: "Pay a recipient abroad at a quote's price",
    description:
      "Creates the intent (`pending`) from one of a quote's options and reserves its `sourceAmount` from the available NGN balance, in one transaction. " +
      'The worker then moves it `processing → bridge_initiated → bridge_confirmed → withdrawal_initiated → withdrawal_confirmed → settled` (or `rejected`, ' +
      'with the reservation returned); poll `GET …/{intentId}`. Any refusal reserves nothing and leaves the quote usable. Requires an Idempotency-Key.',
    success: {
      status: 201,
      type: InternationalIntentEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Created, `pending`',
      example: { message: 'International payment intent created', response: INTERNATIONAL_INTENT_EXAMPLE },
    },
    body: {
      type: CreateInternationalIntentDto,
      example: {
        quoteId: 'qt_5c4b3a29181706f5e4d3c2b1',
        quoteOptionId: 'qo_0a1b2c3d4e5f60718293a4b5',
        recipientFullName: 'Jane Doe',
        bankCodeType: 'swift',
        bankCode: 'CHASUS33',
        accountNumber: '000123456789',
        purposeOfTransfer: 'Information Service Charges',
        recipientEmail: 'jane@example.com',
        paymentReference: 'INV-2026-0042',
      },
    },
    errors: [...idempotencyErrors('required'), 'quote_not_found', 'quote_expired', 'quote_already_used', 'kyb_not_verified', 'insufficient_funds'],
  })
  @Answer('International payment intent created')
  create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreateInternationalIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<InternationalIntentDto> {
    return this.intents.create(merchant.merchantId, dto, claim);
  }

  @MerchantRoute()
  @Get()
  @ApiMerchantOperation({
    operationId: 'listInternationalPaymentIntents',
    summary: 'List international payment intents, newest first',
    success: {
      status: 200,
      type: InternationalIntentListEnvelopeDto,
      description: 'A page of international payment intents',
      headers: LIST_HEADERS,
      example: { message: 'International payment intents retrieved', response: [SETTLED_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  @Answer('International payment intents retrieved')
  async list(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Query() query: InternationalIntentListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InternationalIntentDto[]> {
    return sendPage(reply, await this.intents.list(merchant.merchantId, query));
  }

  @MerchantRoute()
  @Get(':intentId')
  @ApiMerchantOperation({
    operationId: 'getInternationalPaymentIntent',
    summary: 'Retrieve an international payment intent (poll its settlement)',
    success: {
      status: 200,
      type: InternationalIntentEnvelopeDto,
      description: 'The intent',
      example: { message: 'International payment intent retrieved', response: SETTLED_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  @Answer('International payment intent retrieved')
  async get(@CurrentMerchant() merchant: MerchantPrincipal, @Param('intentId') id: string): Promise<InternationalIntentDto> {
    return await this.intents.get(merchant.merchantId, id);
  }
}
