import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { CurrentMerchant, MerchantId, MerchantPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { Operation } from '../operations';
import { ConfirmPaymentIntentDto, CreatePaymentIntentDto, PaymentIntentListQuery } from './dto/create-payment-intent.dto';
import {
  PAYMENT_INTENT_EXAMPLE,
  PaymentIntentDto,
  PaymentIntentEnvelopeDto,
  PaymentIntentListEnvelopeDto,
  CONFIRM_ERRORS,
} from './dto/payment-intent.response';
import { PaymentIntentsService } from './payment-intents.service';
import { DASHBOARD_PAYMENT_INTENTS_PATH, PAYMENT_INTENTS_PATH } from './payment-intents.routes';

const FUNDED_EXAMPLE: PaymentIntentDto = {
  ...PAYMENT_INTENT_EXAMPLE,
  status: 'funds_received',
  amountReceived: 50000,
  fundedAt: '2026-11-20T09:45:12.000Z',
  payments: [
    {
      paymentId: 'pay_1a2b3c4d5e6f708192a3b4c5',
      amount: 50000,
      senderBankName: 'Guaranty Trust Bank',
      senderAccountNumber: '0123456789',
      status: 'accepted',
      returnReason: null,
      receivedAt: '2026-11-20T09:45:12.000Z',
    },
  ],
  updatedAt: '2026-11-20T09:45:12.000Z',
};

@Controller()
export class PaymentIntentsController {
  constructor(private readonly intents: PaymentIntentsService) {}

  @Operation({
    method: 'POST',
    merchant: { path: PAYMENT_INTENTS_PATH, tag: 'Payment intents', permission: 'write' },
    idempotent: { mode: 'required', status: 201, creates: 'pi' },
    answer: 'Payment intent created',
    operationId: 'createPaymentIntent',
    summary: 'Create a payment intent: a dynamic virtual account for one transfer',
    description:
      'Opens a virtual account (a NUBAN) for this intent alone. A transfer of exactly `amount` (from the expected sender, when given) before ' +
      '`expiresAt` moves it to `funds_received`; any other transfer is returned to its sender. Requires an Idempotency-Key.',
    success: {
      status: 201,
      type: PaymentIntentEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Created, `awaiting_payment`',
      example: { message: 'Payment intent created', response: PAYMENT_INTENT_EXAMPLE },
    },
    body: { type: CreatePaymentIntentDto, example: { merchantReference: 'order-10045', amount: 50000, expiresInMinutes: 30 } },
    errors: ['merchant_reference_in_use'],
  })
  create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreatePaymentIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PaymentIntentDto> {
    return this.intents.create(merchant, dto, claim);
  }

  @Operation({
    method: 'GET',
    merchant: { path: PAYMENT_INTENTS_PATH, tag: 'Payment intents' },
    dashboard: { path: DASHBOARD_PAYMENT_INTENTS_PATH, tag: 'Dashboard: money' },
    answer: 'Payment intents retrieved',
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    success: {
      status: 200,
      type: PaymentIntentListEnvelopeDto,
      description: 'A page of payment intents',
      headers: LIST_HEADERS,
      example: { message: 'Payment intents retrieved', response: [FUNDED_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(
    @MerchantId() merchantId: string,
    @Query() query: PaymentIntentListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PaymentIntentDto[]> {
    return sendPage(reply, await this.intents.list(merchantId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${PAYMENT_INTENTS_PATH}/:paymentIntentId`, tag: 'Payment intents' },
    dashboard: { path: `${DASHBOARD_PAYMENT_INTENTS_PATH}/:paymentIntentId`, tag: 'Dashboard: money' },
    answer: 'Payment intent retrieved',
    operationId: 'getPaymentIntent',
    summary: 'Retrieve a payment intent with the transfers seen',
    success: {
      status: 200,
      type: PaymentIntentEnvelopeDto,
      description: 'The payment intent',
      example: { message: 'Payment intent retrieved', response: FUNDED_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  async get(@MerchantId() merchantId: string, @Param('paymentIntentId') id: string): Promise<PaymentIntentDto> {
    return await this.intents.get(merchantId, id);
  }

  @Operation({
    method: 'POST',
    merchant: { path: `${PAYMENT_INTENTS_PATH}/:paymentIntentId/confirm`, tag: 'Payment intents', permission: 'move_money' },
    dashboard: {
      path: `${DASHBOARD_PAYMENT_INTENTS_PATH}/:paymentIntentId/confirm`,
      tag: 'Dashboard: money',
      roles: ['owner'],
      audit: ({ params }) => ({ action: 'payment_intent.confirmed', objectId: params.paymentIntentId }),
    },
    idempotent: { mode: 'required', status: 200 },
    answer: 'Payment intent confirmed',
    operationId: 'confirmPaymentIntent',
    summary: "Confirm a funded payment intent: credits the merchant's balance once",
    description: '`funds_received → succeeded`; the NGN balance is credited with `amount` exactly once. Body empty or `{}`. Requires an Idempotency-Key.',
    success: {
      status: 200,
      type: PaymentIntentEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Confirmed, `succeeded`',
      example: { message: 'Payment intent confirmed', response: { ...FUNDED_EXAMPLE, status: 'succeeded', confirmedAt: '2026-11-20T09:46:00.000Z' } },
    },
    body: { type: ConfirmPaymentIntentDto, example: {}, optional: true },
    errors: [...CONFIRM_ERRORS],
  })
  confirm(
    @MerchantId() merchantId: string,
    @Param('paymentIntentId') id: string,
    @Body() _body: ConfirmPaymentIntentDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PaymentIntentDto> {
    return this.intents.confirm(merchantId, id, claim);
  }
}
