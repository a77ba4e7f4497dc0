import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { BANK_CODE_TYPES, BankCodeType } from '../../../common/banking/recipient-bank';
import { canonicalTransferPurpose, TRANSFER_PURPOSES } from '../transfer-purposes';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { IsBankCodeFor } from '../recipient-bank.validator';
import { trimmed } from '../../../common/validation/transforms';

const purpose = ({ value }: { value: unknown }) => (typeof value === 'string' ? (canonicalTransferPurpose(value) ?? value) : value);

/** BICs and IBANs in their electronic form (upper case, no spaces), as they are often written in groups of four. */
const bankCode = ({ value, obj }: { value: unknown; obj: { bankCodeType?: unknown } }) => {
  if (typeof value !== 'string') return value;
  return obj.bankCodeType === 'swift' || obj.bankCodeType === 'iban' ? value.replace(/\s+/g, '').toUpperCase() : value.trim();
};

export class CreateInternationalIntentDto {
  @ApiProperty({ example: 'qt_5c4b3a29181706f5e4d3c2b1' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  quoteId: string;

  @ApiProperty({ example: 'qo_0a1b2c3d4e5f60718293a4b5', description: "One of the quote's `options`: it fixes the route, the rate and the fee" })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  quoteOptionId: string;

  @ApiProperty({ example: 'Jane Doe', minLength: 1, maxLength: 140 })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(140)
  @IsDisplayText()
  recipientFullName: string;

  @ApiProperty({ enum: BANK_CODE_TYPES, description: 'What `bankCode` is' })
  @IsIn(BANK_CODE_TYPES)
  bankCodeType: BankCodeType;

  @ApiProperty({
    example: 'CHASUS33',
    maxLength: 34,
    description:
      'A BIC (ISO 9362) for `swift`, the IBAN itself for `iban` (both may be written in groups with spaces, and in either case) (check digits and length are checked), a 9-digit ABA routing number for `routing_number` (checksum checked), any local code for `other`',
  })
  @Transform(bankCode)
  @IsString()
  @IsBankCodeFor('bankCodeType')
  bankCode: string;

  @ApiPropertyOptional({
    example: '000123456789',
    pattern: '^[A-Za-z0-9]{1,34}$',
    description: 'Required unless `bankCodeType` is `iban` (the IBAN is the account)',
  })
  @ValidateIf((body: CreateInternationalIntentDto) => body.bankCodeType !== 'iban' || body.accountNumber !== undefined)
  @Transform(trimmed)
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,34}$/, { message: 'accountNumber must be 1 to 34 letters and digits' })
  accountNumber?: string;

  @ApiProperty({ example: 'Information Service Charges', enum: TRANSFER_PURPOSES, description: 'One of the listed purposes, matched without regard to case' })
  @Transform(purpose)
  @IsIn(TRANSFER_PURPOSES, { message: 'purposeOfTransfer must be one of the documented transfer purposes' })
  purposeOfTransfer: string;

  @ApiPropertyOptional({ example: 'jane@example.com' })
  @IsOptional()
  @Transform(trimmed)
  @IsEmail()
  @MaxLength(254)
  recipientEmail?: string;

  @ApiPropertyOptional({ example: 'INV-2026-0042', minLength: 1, maxLength: 140, description: 'Shown to the recipient with the payment' })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(140)
  @IsDisplayText()
  paymentReference?: string;
}
