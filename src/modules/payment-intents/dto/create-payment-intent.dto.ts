import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ListQuery } from '../../../common/http/list.query';
import { IsTimestamp } from '../../../common/validation/timestamp.validator';
import { PAYMENT_INTENT_STATES } from '../payment-intent.states';
import { MAX_MAJOR_AMOUNT } from '../../../common/money/money';
import { TestSenderFields } from '../../bank-rail';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { trimmed } from '../../../common/validation/transforms';
import { IsMoneyAmount } from '../../../common/validation/money.validator';

export const DEFAULT_EXPIRES_IN_MINUTES = 30;

export class CreatePaymentIntentDto {
  @ApiProperty({ example: 'order-10045', minLength: 1, maxLength: 100, description: "The merchant's own reference, unique per merchant" })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @IsDisplayText()
  merchantReference: string;

  @ApiProperty({ example: 50000, minimum: 0.01, maximum: MAX_MAJOR_AMOUNT, description: 'NGN in major units, at most 2 decimal places' })
  @IsMoneyAmount('NGN')
  amount: number;

  @ApiPropertyOptional({
    example: 'Guaranty Trust Bank',
    maxLength: 100,
    description: 'When given, a transfer from another bank is returned (`sender_mismatch`)',
  })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  expectedSenderBankName?: string;

  @ApiPropertyOptional({
    example: '0123456789',
    pattern: '^\\d{10}$',
    description: 'When given, a transfer from another account is returned (`sender_mismatch`)',
  })
  @IsOptional()
  @IsString()
  @Matches(/^\d{10}$/, { message: 'expectedSenderAccountNumber must be 10 digits' })
  expectedSenderAccountNumber?: string;

  @ApiPropertyOptional({
    minimum: 5,
    maximum: 10080,
    description: `Minutes until the account stops accepting the payment; ${DEFAULT_EXPIRES_IN_MINUTES} when absent`,
  })
  @IsOptional()
  @IsInt()
  @Min(5)
  @Max(10080)
  expiresInMinutes?: number;
}

/** Test mode: what the simulated sender sends. */
export class FundPaymentIntentDto extends TestSenderFields({
  bankName: 'The expected sender bank when absent, else a fixed test bank',
  accountNumber: 'The expected sender account when absent, else a fixed test account',
}) {
  @ApiPropertyOptional({ example: 50000, minimum: 0.01, maximum: MAX_MAJOR_AMOUNT, description: "NGN in major units; the intent's amount when absent" })
  @IsOptional()
  @IsMoneyAmount('NGN')
  amount?: number;
}

/** `confirm` takes no fields: an empty body or `{}`. */
export class ConfirmPaymentIntentDto {}

/** `?limit=&cursor=` and the filters of the list: status, reference, and the window of `createdAt`. */
export class PaymentIntentListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: PAYMENT_INTENT_STATES.states, description: 'Only intents in this status' })
  @IsOptional()
  @IsIn(PAYMENT_INTENT_STATES.states)
  status?: string;

  @ApiPropertyOptional({ example: 'order-10045', description: 'Only the intent with this `merchantReference`' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  merchantReference?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Only intents created at or after this time' })
  @IsOptional()
  @IsTimestamp()
  createdAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'Only intents created before this time' })
  @IsOptional()
  @IsTimestamp()
  createdBefore?: string;
}
