import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsISO31661Alpha2, IsNotEmpty, IsOptional, IsPhoneNumber, IsString, Matches, MaxLength } from 'class-validator';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { trimmed, trimmedUpperCase } from '../../../common/validation/transforms';

export class CreatePoboBusinessDto {
  @ApiProperty({ example: 'Acme Trading Ltd', maxLength: 200 })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  // Shown to the business on the agreement page, and to the merchant's own customers later.
  @IsDisplayText()
  businessName: string;

  @ApiProperty({ example: 'finance@acme.example', format: 'email' })
  @Transform(trimmed)
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ example: '+2348012345678', description: 'E.164' })
  @IsString()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'phoneNumber must be in E.164 format, e.g. +2348012345678' })
  @IsPhoneNumber(undefined, { message: 'phoneNumber must be a valid phone number' })
  phoneNumber: string;

  @ApiProperty({ example: 'NG', description: 'ISO 3166-1 alpha-2' })
  @Transform(trimmedUpperCase)
  @IsString()
  @IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 code' })
  country: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  allowNairaCollection?: boolean;
}
