import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { InternationalIntentListQuery } from './dto/international-intent-list.query';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { CreateInternationalIntentDto } from './dto/create-international-intent.dto';
import {
  INTERNATIONAL_INTENT_EXAMPLE,
  InternationalIntentDto,
  InternationalIntentEnvelopeDto,
  InternationalIntentListEnvelopeDto,
  TimelineEntryDto,
  TimelineEnvelopeDto,
} from './dto/international-intent.response';
import { InternationalIntentsService } from './international-intents.service';
import { DASHBOARD_INTERNATIONAL_INTENTS_PATH, INTERNATIONAL_INTENTS_PATH } from './international-intents.routes';

const SETTLED_EXAMPLE: InternationalIntentDto = {
  ...INTERNATIONAL_INTENT_EXAMPLE,
  status: 'settled',
  processedAt: '2026-11-20T09:52:01.000Z',
  settledAt: '2026-11-20T09:52:04.000Z',
  receiptUrl: 'https://api.example.com/receipts/Xq3v9PZkz0m5yT8rW2bLcA',
  telexUrl: 'https://api.example.com/receipts/Xq3v9PZkz0m5yT8rW2bLcA/telex',
  updatedAt: '2026-11-20T09:52:04.000Z',
};

@Controller()
export class InternationalIntentsController {
  constructor(private readonly intents: InternationalIntentsService) {}

  @Operation({
    method: 'POST',
    merchant: { path: INTERNATIONAL_INTENTS_PATH, tag: 'International payment intents', permission: 'move_money' },
    idempotent: { mode: 'required', status: 201, creates: 'ipi' },
    answer: 'International payment intent created',
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
    errors: ['quote_not_found', 'quote_expired', 'quote_already_used', 'kyb_not_verified', 'insufficient_funds'],
  })
  create(
    @MerchantId() merchantId: string,
    @Body() dto: CreateInternationalIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<InternationalIntentDto> {
    return this.intents.create(merchantId, dto, claim);
  }

  @Operation({
    method: 'GET',
    merchant: { path: INTERNATIONAL_INTENTS_PATH, tag: 'International payment intents' },
    dashboard: { path: DASHBOARD_INTERNATIONAL_INTENTS_PATH, tag: 'Dashboard: money' },
    answer: 'International payment intents retrieved',
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
  async list(
    @MerchantId() merchantId: string,
    @Query() query: InternationalIntentListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InternationalIntentDto[]> {
    return sendPage(reply, await this.intents.list(merchantId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${INTERNATIONAL_INTENTS_PATH}/:intentId`, tag: 'International payment intents' },
    dashboard: { path: `${DASHBOARD_INTERNATIONAL_INTENTS_PATH}/:intentId`, tag: 'Dashboard: money' },
    answer: 'International payment intent retrieved',
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
  async get(@MerchantId() merchantId: string, @Param('intentId') id: string): Promise<InternationalIntentDto> {
    return await this.intents.get(merchantId, id);
  }

  @Operation({
    method: 'GET',
    dashboard: { path: `${DASHBOARD_INTERNATIONAL_INTENTS_PATH}/:intentId/timeline`, tag: 'Dashboard: money' },
    operationId: 'dashboardGetInternationalPaymentIntentTimeline',
    summary: "An international payment intent's moves through the pipeline, oldest first",
    description: 'Each leg as it started and was confirmed (bridge, then payout), then the settlement or the rejection, with its cause and time.',
    answer: 'Timeline retrieved',
    success: { status: 200, type: TimelineEnvelopeDto, description: 'The timeline' },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  timeline(@MerchantId() merchantId: string, @Param('intentId') id: string): Promise<TimelineEntryDto[]> {
    return this.intents.timeline(merchantId, id);
  }
}
