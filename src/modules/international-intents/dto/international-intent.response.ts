import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROUTE_TYPES } from '../../cross-border-rails';
import { INTERNATIONAL_INTENT_STATES } from '../international-intent.states';
import { BANK_CODE_TYPES } from '../../../common/banking/recipient-bank';

/**
 * An international payment intent (endpoint 6). Fields that do not apply are left out rather than
 * null (`paymentReference`, `recipientEmail`, `accountNumber`, `adminNote`, `receiptUrl`,
 * `telexUrl`); the three date-times that come later are null until they happen.
 */
export class InternationalIntentDto {
  @ApiProperty({ example: 'ipi_7e6d5c4b3a29181706f5e4d3', pattern: '^ipi_[0-9a-f]{24}$' })
  intentId: string;

  @ApiProperty({ enum: INTERNATIONAL_INTENT_STATES.states })
  status: string;

  @ApiProperty({ example: 'qt_5c4b3a29181706f5e4d3c2b1' })
  quoteId: string;

  @ApiProperty({ example: 'qo_0a1b2c3d4e5f60718293a4b5' })
  quoteOptionId: string;

  @ApiProperty({ example: 'pobo_3f9a1c2b4d5e6f708192a3b4', description: 'The business the payment is made on behalf of' })
  poboUserId: string;

  @ApiPropertyOptional({ example: 'INV-2026-0042' })
  paymentReference?: string;

  @ApiProperty({ enum: ROUTE_TYPES })
  routeType: string;

  @ApiProperty({ example: 'US' })
  destinationCountry: string;

  @ApiProperty({ example: 1000, description: 'What the recipient receives, in major units of `currency`' })
  amount: number;

  @ApiProperty({ example: 'USD', pattern: '^[A-Z]{3}$', description: 'ISO 4217' })
  currency: string;

  @ApiProperty({ example: 1574511.25, description: 'What the NGN balance pays (reserved at creation), fee included' })
  sourceAmount: number;

  @ApiProperty({ enum: ['NGN'] })
  sourceCurrency: string;

  @ApiProperty({ example: 'Jane Doe' })
  recipientFullName: string;

  @ApiPropertyOptional({ example: 'jane@example.com', format: 'email' })
  recipientEmail?: string;

  @ApiProperty({ example: 'CHASUS33' })
  bankCode: string;

  @ApiProperty({ enum: BANK_CODE_TYPES })
  bankCodeType: string;

  @ApiPropertyOptional({ example: '000123456789' })
  accountNumber?: string;

  @ApiProperty({ example: 'Information Service Charges' })
  purposeOfTransfer: string;

  @ApiPropertyOptional({ example: 'Rejected by compliance screening at the bridge rail', description: 'Why the intent was rejected; only on `rejected`' })
  adminNote?: string;

  @ApiProperty({ format: 'date-time', type: String, description: "The quote's expiry" })
  quoteExpiresAt: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When it left `processing`' })
  processedAt: string | null;

  @ApiProperty({ format: 'date-time', type: String, nullable: true })
  settledAt: string | null;

  @ApiPropertyOptional({ format: 'uri', description: 'A printable HTML receipt at an unguessable URL; from `settled` on' })
  receiptUrl?: string;

  @ApiPropertyOptional({ format: 'uri', description: 'The payout confirmation (MT103 fields); from `withdrawal_confirmed` on, for `swift` recipients' })
  telexUrl?: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class InternationalIntentEnvelopeDto {
  @ApiProperty({ example: 'International payment intent retrieved' })
  message: string;

  @ApiProperty({ type: InternationalIntentDto })
  response: InternationalIntentDto;
}

export class InternationalIntentListEnvelopeDto {
  @ApiProperty({ example: 'International payment intents retrieved' })
  message: string;

  @ApiProperty({ type: [InternationalIntentDto] })
  response: InternationalIntentDto[];
}

/** One move of an intent through the pipeline: a leg started or confirmed, the settlement or the rejection. */
export class TimelineEntryDto {
  @ApiProperty({ example: 'bridge_confirmed', description: 'The status the intent moved to' })
  status: string;

  @ApiProperty({ example: 'bridge_initiated' })
  previousStatus: string;

  @ApiProperty({ example: 'bridge_completed', description: 'Why it moved (machine-readable): a rail callback, a reconciliation, an operator' })
  cause: string;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

export class TimelineEnvelopeDto {
  @ApiProperty({ example: 'Timeline retrieved' })
  message: string;

  @ApiProperty({ type: [TimelineEntryDto] })
  response: TimelineEntryDto[];
}

export const INTERNATIONAL_INTENT_EXAMPLE: InternationalIntentDto = {
  intentId: 'ipi_7e6d5c4b3a29181706f5e4d3',
  status: 'pending',
  quoteId: 'qt_5c4b3a29181706f5e4d3c2b1',
  quoteOptionId: 'qo_0a1b2c3d4e5f60718293a4b5',
  poboUserId: 'pobo_3f9a1c2b4d5e6f708192a3b4',
  paymentReference: 'INV-2026-0042',
  routeType: 'ngn',
  destinationCountry: 'US',
  amount: 1000,
  currency: 'USD',
  sourceAmount: 1574511.25,
  sourceCurrency: 'NGN',
  recipientFullName: 'Jane Doe',
  recipientEmail: 'jane@example.com',
  bankCode: 'CHASUS33',
  bankCodeType: 'swift',
  accountNumber: '000123456789',
  purposeOfTransfer: 'Information Service Charges',
  quoteExpiresAt: '2026-11-20T10:05:00.000Z',
  processedAt: null,
  settledAt: null,
  createdAt: '2026-11-20T09:52:00.000Z',
  updatedAt: '2026-11-20T09:52:00.000Z',
};
