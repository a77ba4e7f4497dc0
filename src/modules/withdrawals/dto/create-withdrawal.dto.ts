import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { MAX_MAJOR_AMOUNT } from '../../../common/money/money';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { trimmed } from '../../../common/validation/transforms';
import { IsMoneyAmount } from '../../../common/validation/money.validator';
import { BANK_CODES } from '../banks';

export class CreateWithdrawalDto {
  @ApiProperty({ example: 'payout-2026-11-20', minLength: 1, maxLength: 100, description: "The merchant's own reference, unique per merchant" })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @IsDisplayText()
  merchantReference: string;

  @ApiProperty({ example: 25000, minimum: 0.01, maximum: MAX_MAJOR_AMOUNT, description: 'NGN in major units, at most 2 decimal places; the fee comes on top' })
  @IsMoneyAmount('NGN')
  amount: number;

  @ApiProperty({ example: '058', enum: BANK_CODES, description: '3-digit CBN code of a bank in `GET /api/merchant/banks`' })
  @IsString()
  @IsIn(BANK_CODES, { message: 'bankCode must be the code of a bank in GET /api/merchant/banks' })
  bankCode: string;

  @ApiProperty({ example: '0123456785', pattern: '^\\d{10}$', description: 'NUBAN: 10 digits, the last a check digit valid for bankCode' })
  @IsString()
  @Matches(/^\d{10}$/, { message: 'accountNumber must be 10 digits' })
  accountNumber: string;

  @ApiProperty({ example: 'Acme Stores Ltd', maxLength: 100 })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @IsDisplayText()
  accountName: string;

  @ApiPropertyOptional({ example: 'November settlement', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  narration?: string;
}

/** A whole request, the example of both APIs' documents. */
export const CREATE_WITHDRAWAL_EXAMPLE = {
  merchantReference: 'payout-2026-11-20',
  amount: 25000,
  bankCode: '058',
  accountNumber: '0123456785',
  accountName: 'Acme Stores Ltd',
};
