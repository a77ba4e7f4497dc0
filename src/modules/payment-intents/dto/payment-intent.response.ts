import type { ErrorCode } from '../../../common/errors/error-codes';
import { idempotencyErrors } from '../../idempotency';
import { ApiProperty } from '@nestjs/swagger';
import { PAYMENT_INTENT_STATES } from '../payment-intent.states';
import { RETURN_REASONS } from '../inbound-payment.entity';

export class VirtualAccountDto {
  @ApiProperty({ example: '9012345674', pattern: '^\\d{10}$', description: 'NUBAN, valid for `bankCode`' })
  accountNumber: string;

  @ApiProperty({ example: 'Acme Stores' })
  accountName: string;

  @ApiProperty({ example: 'Sandbox Microfinance Bank' })
  bankName: string;

  @ApiProperty({ example: '999', pattern: '^\\d{3}$', description: '3-digit CBN bank code' })
  bankCode: string;
}

export class InboundPaymentDto {
  @ApiProperty({ example: 'pay_1a2b3c4d5e6f708192a3b4c5', pattern: '^pay_[0-9a-f]{24}$' })
  paymentId: string;

  @ApiProperty({ example: 50000 })
  amount: number;

  @ApiProperty({ example: 'Guaranty Trust Bank' })
  senderBankName: string;

  @ApiProperty({ example: '0123456789' })
  senderAccountNumber: string;

  @ApiProperty({ enum: ['accepted', 'returned'] })
  status: string;

  @ApiProperty({ enum: [...RETURN_REASONS, null], nullable: true, type: String, description: 'Why a returned transfer was sent back; null when accepted' })
  returnReason: string | null;

  @ApiProperty({ format: 'date-time' })
  receivedAt: string;
}

export class PaymentIntentDto {
  @ApiProperty({ example: 'pi_9f8e7d6c5b4a39281706f5e4', pattern: '^pi_[0-9a-f]{24}$' })
  paymentIntentId: string;

  @ApiProperty({ example: 'order-10045' })
  merchantReference: string;

  @ApiProperty({ example: 50000 })
  amount: number;

  @ApiProperty({ example: 'NGN', enum: ['NGN'] })
  currency: string;

  @ApiProperty({ enum: PAYMENT_INTENT_STATES.states })
  status: string;

  @ApiProperty({ example: 0, description: 'Sum of the accepted inbound payments' })
  amountReceived: number;

  @ApiProperty({ type: String, nullable: true, example: null })
  expectedSenderBankName: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  expectedSenderAccountNumber: string | null;

  @ApiProperty({ type: VirtualAccountDto })
  virtualAccount: VirtualAccountDto;

  @ApiProperty({ type: [InboundPaymentDto] })
  payments: InboundPaymentDto[];

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  fundedAt: string | null;

  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  confirmedAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class PaymentIntentEnvelopeDto {
  @ApiProperty({ example: 'Payment intent created' })
  message: string;

  @ApiProperty({ type: PaymentIntentDto })
  response: PaymentIntentDto;
}

export class PaymentIntentListEnvelopeDto {
  @ApiProperty({ example: 'Payment intents retrieved' })
  message: string;

  @ApiProperty({ type: [PaymentIntentDto] })
  response: PaymentIntentDto[];
}

export class FundPaymentIntentResultDto {
  @ApiProperty({ example: 'trf_0a1b2c3d4e5f60718293a4b5', description: "The sandbox rail's id of the simulated transfer" })
  transferId: string;

  @ApiProperty({ example: 'pi_9f8e7d6c5b4a39281706f5e4' })
  paymentIntentId: string;

  @ApiProperty({ example: 50000 })
  amount: number;
}

export class FundPaymentIntentEnvelopeDto {
  @ApiProperty({ example: 'Test transfer sent' })
  message: string;

  @ApiProperty({ type: FundPaymentIntentResultDto })
  response: FundPaymentIntentResultDto;
}

export const PAYMENT_INTENT_EXAMPLE: PaymentIntentDto = {
  paymentIntentId: 'pi_9f8e7d6c5b4a39281706f5e4',
  merchantReference: 'order-10045',
  amount: 50000,
  currency: 'NGN',
  status: 'awaiting_payment',
  amountReceived: 0,
  expectedSenderBankName: null,
  expectedSenderAccountNumber: null,
  virtualAccount: { accountNumber: '9012345674', accountName: 'Acme Stores', bankName: 'Sandbox Microfinance Bank', bankCode: '999' },
  payments: [],
  expiresAt: '2026-11-20T10:11:07.000Z',
  fundedAt: null,
  confirmedAt: null,
  createdAt: '2026-11-20T09:41:07.000Z',
  updatedAt: '2026-11-20T09:41:07.000Z',
};

/** What confirming a payment intent may refuse, from the merchant API or the dashboard. */
export const CONFIRM_ERRORS = [
  'resource_not_found',
  'uri_too_long',
  ...idempotencyErrors('required'),
  'payment_not_received',
  'payment_intent_expired',
  'payment_intent_already_confirmed',
] as const satisfies readonly ErrorCode[];
