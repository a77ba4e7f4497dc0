import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsISO31661Alpha2, IsISO4217CurrencyCode, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_MAJOR_AMOUNT } from '../../../common/money/money';
import { IsMoneyAmountIn } from '../../../common/validation/money.validator';
import { trimmed, trimmedUpperCase } from '../../../common/validation/transforms';

export class CreateQuoteDto {
  @ApiProperty({ example: 'pobo_3f9a1c2b4d5e6f708192a3b4', description: 'One of your businesses: the sender of the payment' })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  poboUserId: string;

  @ApiProperty({ example: 'US', pattern: '^[A-Z]{2}$', description: "The recipient's country, ISO 3166-1 alpha-2" })
  @Transform(trimmedUpperCase)
  @IsString()
  @IsISO31661Alpha2({ message: 'destinationCountry must be an ISO 3166-1 alpha-2 code' })
  destinationCountry: string;

  @ApiProperty({ example: 'USD', pattern: '^[A-Z]{3}$', description: "The recipient's currency, ISO 4217" })
  @Transform(trimmedUpperCase)
  @IsString()
  @IsISO4217CurrencyCode({ message: 'currency must be an ISO 4217 currency code' })
  currency: string;

  @ApiProperty({
    example: 1000,
    minimum: 0.01,
    maximum: MAX_MAJOR_AMOUNT,
    description: 'What the recipient receives, in major units of `currency` (at most 2 decimal places)',
  })
  @IsMoneyAmountIn('currency')
  amount: number;
}
