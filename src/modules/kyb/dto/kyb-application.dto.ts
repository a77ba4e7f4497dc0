import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsISO31661Alpha2,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsNotFutureDate } from '../../../common/validation/calendar-date.validator';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { COMPANY_FILE_TYPES, ID_TYPES, IDENTITY_FILE_TYPES, PERSON_TYPES } from '../kyb.constants';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A nested object that must be there: `@ValidateNested` alone passes an absent value, and would
 * validate each element of an array sent where the object belongs.
 */
const RequiredObject = (type: new () => object) => applyDecorators(IsObject(), ValidateNested(), Type(() => type));
/**
 * An array of nested objects. `@ValidateNested({ each: true })` alone lets an array or a scalar
 * stand where an element belongs (`company_files: [[]]`), and the onboarding rules would then
 * read fields of something that has none.
 */
const ObjectArray = (type: new () => object) => applyDecorators(IsArray(), IsObject({ each: true }), ValidateNested({ each: true }), Type(() => type));
const dateMessage = { message: '$property must be a date in YYYY-MM-DD format' };

class RegisterAddressDto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(200) street: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) city: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) state?: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(20) postal_code: string;
}

class AddressDto extends RegisterAddressDto {
  @ApiProperty({ example: 'NG' }) @IsISO31661Alpha2() country: string;
}

export class CompanyDto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(200) @IsDisplayText() name: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(200) @IsDisplayText() business_name: string;
  @ApiProperty({ example: 'RC-123456' }) @IsString() @IsNotEmpty() @MaxLength(100) registration_number: string;
  @ApiProperty({ example: 'NG' }) @IsISO31661Alpha2() country: string;
  @ApiProperty({ example: '2019-04-01' }) @Matches(DATE, dateMessage) @IsISO8601({ strict: true }) @IsNotFutureDate() incorporation_date: string;
  @ApiProperty({ example: 'limited_liability_company' }) @IsString() @IsNotEmpty() @MaxLength(100) type: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(2000) description: string;
  @ApiProperty({ example: 'wholesale_trade' }) @IsString() @IsNotEmpty() @MaxLength(200) industry: string;
  @ApiProperty({ type: RegisterAddressDto }) @RequiredObject(RegisterAddressDto) register_address: RegisterAddressDto;
  @ApiProperty({ type: AddressDto }) @RequiredObject(AddressDto) business_address: AddressDto;
  @ApiProperty() @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ example: 'https://acme.example' }) @IsUrl({ require_protocol: true }) @MaxLength(500) url: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) tax_id: string;
  @ApiPropertyOptional({ example: '+2348012345678' }) @IsOptional() @Matches(/^\+[1-9]\d{6,14}$/) phone_number?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) @IsDisplayText() trade_name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) source_of_funds?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) purpose_of_account?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) expected_monthly_volume?: string;
}

class IdentityFileDto {
  @ApiProperty({ enum: IDENTITY_FILE_TYPES }) @IsIn(IDENTITY_FILE_TYPES) file_type: string;
  @ApiProperty({ enum: ['FRONT', 'BACK'] }) @IsIn(['FRONT', 'BACK']) part: string;
  @ApiProperty({ example: 'NG' }) @IsISO31661Alpha2() country: string;
  @ApiProperty({ description: 'Standard base64 of the file (a data: URL prefix is accepted)' }) @IsString() file: string;
}

export class AssociatedPersonDto {
  @ApiProperty({ enum: PERSON_TYPES }) @IsIn(PERSON_TYPES) type: (typeof PERSON_TYPES)[number];
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) first_name: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) middle_name?: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) last_name: string;
  @ApiProperty({ example: '1985-02-17' }) @Matches(DATE, dateMessage) @IsISO8601({ strict: true }) @IsNotFutureDate() birthday: string;
  @ApiProperty({ example: 'NG' }) @IsISO31661Alpha2() nationality: string;
  @ApiProperty() @IsEmail() @MaxLength(254) email: string;
  @ApiPropertyOptional() @IsOptional() @Matches(/^\+[1-9]\d{6,14}$/) phone_number?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) title?: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 100 }) @IsOptional() @IsNumber() @Min(0) @Max(100) ownership_percentage?: number;
  @ApiProperty({ enum: ID_TYPES }) @IsIn(ID_TYPES) id_type: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) id_number: string;
  @ApiProperty({ type: AddressDto }) @RequiredObject(AddressDto) residential_address: AddressDto;
  @ApiProperty({ type: [IdentityFileDto] })
  @ObjectArray(IdentityFileDto)
  @ArrayMaxSize(10)
  identity_files: IdentityFileDto[];
}

export class CompanyFileDto {
  @ApiProperty({ enum: COMPANY_FILE_TYPES }) @IsIn(COMPANY_FILE_TYPES) file_type: string;
  @ApiProperty({ type: [String], description: 'Standard base64 of each document (a data: URL prefix is accepted)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  files: string[];
}

/** The KYB application, following the OwlPay Harbor business-onboarding format (snake_case). */
export class KybApplicationDto {
  @ApiProperty({ type: CompanyDto }) @RequiredObject(CompanyDto) company: CompanyDto;

  @ApiProperty({ type: [AssociatedPersonDto], description: 'Exactly one representative and at least one applicant' })
  @ObjectArray(AssociatedPersonDto)
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  associated_persons: AssociatedPersonDto[];

  @ApiProperty({ type: [CompanyFileDto], description: 'One entry per file_type; all six required groups' })
  @ObjectArray(CompanyFileDto)
  @ArrayMaxSize(COMPANY_FILE_TYPES.length)
  company_files: CompanyFileDto[];
}
