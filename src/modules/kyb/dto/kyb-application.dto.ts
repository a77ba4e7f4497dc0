import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
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
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsNotFutureDate } from '../../../common/validation/calendar-date.validator';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import {
  COMPANY_FILE_TYPES,
  GENDERS,
  HARBOR_COMPANY_TYPES,
  ID_TYPES,
  IDENTITY_FILE_PARTS,
  IDENTITY_FILE_TYPES,
  PERSON_TYPES,
  PURPOSES_OF_REGISTRATION,
  REQUIRED_COMPANY_FILE_TYPES,
  SOURCES_OF_FUNDS,
} from '../kyb.constants';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A national number as Harbor takes it (`2025550100`, `555-555-1234`); E.164 (`+234…`) as before. */
const PHONE_NUMBER = /^\+?[0-9][0-9 ().-]{2,30}$/;
const DIGITS = /^[0-9]{4,20}$/;

/**
 * A nested object that must be there: `@ValidateNested` alone passes an absent value, and would
 * validate each element of an array sent where the object belongs.
 */
const RequiredObject = (type: new () => object) =>
  applyDecorators(
    IsObject(),
    ValidateNested(),
    Type(() => type),
  );
/**
 * An array of nested objects. `@ValidateNested({ each: true })` alone lets an array or a scalar
 * stand where an element belongs (`company_files: [[]]`), and the onboarding rules would then
 * read fields of something that has none.
 */
const ObjectArray = (type: new () => object) =>
  applyDecorators(
    IsArray(),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    Type(() => type),
  );
/**
 * Optional, but `null` is refused unless the field allows it: `@IsOptional` would let `null`
 * through to code that expects an object or an array.
 */
const Given = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
const dateMessage = { message: '$property must be a date in YYYY-MM-DD format' };

/**
 * One of `values`, matched without regard to (ASCII) case and stored (and forwarded) in its listed
 * form, so the rules that count values (one representative) see one spelling. Anything else is left
 * as sent for `@IsIn` to refuse. The document says the same: JSON Schema has no case-insensitive
 * enum, so the property is a string whose pattern admits exactly the values in any case.
 */
function OneOf(values: readonly string[], options: { optional?: boolean } = {}): PropertyDecorator {
  const canonical = new Map(values.map((value) => [value.toLowerCase(), value]));
  const normalise = (value: unknown) => (typeof value === 'string' && ASCII.test(value) ? (canonical.get(value.toLowerCase()) ?? value) : value);
  return applyDecorators(
    ApiProperty({
      type: String,
      required: !options.optional,
      pattern: anyCasePattern(values),
      example: values[0],
      description: `One of ${values.map((value) => `\`${value}\``).join(', ')}, in any case`,
    }),
    Transform(({ value }: { value: unknown }) => normalise(value)),
    // Not `@IsIn`, whose JSON Schema is a case-sensitive enum: the pattern above is the document's rule.
    ValidateBy({
      name: 'isOneOfAnyCase',
      constraints: [values],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && values.includes(value),
        defaultMessage: () => `$property must be one of: ${values.join(', ')} (in any case)`,
      },
    }),
  );
}

const ASCII = /^[\x20-\x7e]*$/;

/** `^(?:[pP][aA]…|…)$`: each value with its letters in either case. */
function anyCasePattern(values: readonly string[]): string {
  const either = (char: string) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  return `^(?:${values.map((value) => [...value].map(either).join('')).join('|')})$`;
}

/** ISO 3166-1 alpha-2 in any case, kept upper-case like every country code of the API. */
function Country(each = false): PropertyDecorator {
  const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (each && Array.isArray(value) ? value.map(upper) : upper(value))),
    IsString({ each }),
    IsISO31661Alpha2({ each, message: '$property must be an ISO 3166-1 alpha-2 code' }),
  );
}

class RegisterAddressDto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(200) street: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) city: string;
  @ApiPropertyOptional({ description: 'ISO 3166-2 subdivision code, e.g. VA' }) @IsOptional() @IsString() @MaxLength(100) state?: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(20) postal_code: string;
}

class AddressDto extends RegisterAddressDto {
  @ApiProperty({ example: 'NG' }) @Country() country: string;
}

class PhoneDto {
  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2' }) @Country() country: string;
  @ApiProperty({ example: '4155550101', description: 'National number, digits only' })
  @IsString()
  @Matches(DIGITS, { message: '$property must be 4 to 20 digits' })
  number: string;
}

export class CompanyDto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) @IsDisplayText() name: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) @IsDisplayText() business_name: string;
  @ApiProperty({ example: 'RC-123456' }) @IsString() @IsNotEmpty() @MaxLength(255) registration_number: string;
  @ApiProperty({ example: 'NG' }) @Country() country: string;
  @ApiProperty({ example: '2019-04-01' }) @Matches(DATE, dateMessage) @IsISO8601({ strict: true }) @IsNotFutureDate() incorporation_date: string;
  @ApiProperty({ example: 'limitedLiabilityCompany', description: `Free text; Harbor's values are ${HARBOR_COMPANY_TYPES.join(', ')}` })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  type: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(2000) description: string;
  @ApiProperty({ example: 'wholesale_trade' }) @IsString() @IsNotEmpty() @MaxLength(200) industry: string;
  @ApiProperty({ type: RegisterAddressDto }) @RequiredObject(RegisterAddressDto) register_address: RegisterAddressDto;
  @ApiProperty({ type: AddressDto }) @RequiredObject(AddressDto) business_address: AddressDto;
  @ApiProperty() @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ example: 'https://acme.example' }) @IsUrl({ require_protocol: true }) @MaxLength(500) url: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) tax_id: string;

  @ApiPropertyOptional({ type: String, example: 'NG', nullable: true, description: 'ISO 3166-1 alpha-2 of the company phone' })
  @IsOptional()
  @Country()
  phone_country_code?: string | null;
  @ApiPropertyOptional({ type: String, example: '8012345678', nullable: true, description: 'National number (an E.164 number is accepted too)' })
  @IsOptional()
  @IsString()
  @Matches(PHONE_NUMBER, { message: '$property must be a phone number: digits, optionally with spaces, dashes, dots, brackets or a leading +' })
  phone_number?: string | null;
  @ApiPropertyOptional() @Given() @IsBoolean() has_bearer_shares?: boolean;
  @Given() @OneOf(PURPOSES_OF_REGISTRATION, { optional: true }) purpose_of_registration?: string;
  @ApiPropertyOptional({ minimum: 0 }) @Given() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) estimated_number_of_transactions?: number;
  @ApiPropertyOptional({ minimum: 0 }) @Given() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) estimated_amount_of_transactions?: number;
  @ApiPropertyOptional({ type: [String], example: ['NG', 'GH'], description: 'ISO 3166-1 alpha-2 codes, at least one' })
  @Given()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(250)
  @Country(true)
  @ArrayUnique()
  country_of_operation?: string[];
  @ApiPropertyOptional() @Given() @IsBoolean() has_vasp_relationship?: boolean;
  @Given() @OneOf(SOURCES_OF_FUNDS, { optional: true }) source_of_funds?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Required when source_of_funds is OTHER' })
  @ValidateIf(
    (company: CompanyDto) => company.source_of_funds === 'OTHER' || (company.source_of_funds_other !== undefined && company.source_of_funds_other !== null),
  )
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  source_of_funds_other?: string | null;
  @ApiPropertyOptional() @Given() @IsBoolean() transfers_funds_for_clients?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsString() @MaxLength(1000) compliance_screening_explanation?: string | null;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) @IsDisplayText() trade_name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) purpose_of_account?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) expected_monthly_volume?: string;
}

class IdentityFileDto {
  @OneOf(IDENTITY_FILE_TYPES) file_type: string;
  @OneOf(IDENTITY_FILE_PARTS) part: string;
  @ApiProperty({ example: 'NG', description: 'Issuing country' }) @Country() country: string;
  @ApiProperty({ description: 'Standard base64 of the file (a data: URL prefix is accepted)' }) @IsString() file: string;
}

export class AssociatedPersonDto {
  @OneOf(PERSON_TYPES) type: (typeof PERSON_TYPES)[number];
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) first_name: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(255) middle_name?: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) last_name: string;
  @ApiProperty({ example: '1985-02-17' }) @Matches(DATE, dateMessage) @IsISO8601({ strict: true }) @IsNotFutureDate() birthday: string;
  @Given() @OneOf(GENDERS, { optional: true }) gender?: string;
  @ApiProperty({ example: 'NG' }) @Country() nationality: string;
  @ApiProperty() @IsEmail() @MaxLength(254) email: string;
  @ApiPropertyOptional({ example: 'director', description: "A job-title value of Harbor's job-titles list" })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  position?: string;
  @ApiPropertyOptional({ type: PhoneDto }) @Given() @RequiredObject(PhoneDto) phone?: PhoneDto;
  @ApiPropertyOptional({ example: '+2348012345678' }) @IsOptional() @Matches(/^\+[1-9]\d{6,14}$/) phone_number?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) title?: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 100 }) @IsOptional() @IsNumber() @Min(0) @Max(100) ownership_percentage?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 100, description: 'Equity held, in percent' }) @Given() @IsNumber() @Min(0) @Max(100) equity?: number;
  @ApiPropertyOptional() @Given() @IsBoolean() has_control?: boolean;
  @ApiPropertyOptional() @Given() @IsBoolean() is_signer?: boolean;
  @ApiPropertyOptional({ example: '2020-01-01' })
  @Given()
  @Matches(DATE, dateMessage)
  @IsISO8601({ strict: true })
  @IsNotFutureDate()
  relationship_established_at?: string;
  @ApiPropertyOptional({ example: 'NG' }) @Given() @Country() tax_jurisdiction_country?: string;
  @OneOf(ID_TYPES) id_type: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) id_number: string;
  @ApiProperty({ type: AddressDto }) @RequiredObject(AddressDto) residential_address: AddressDto;
  @ApiPropertyOptional({ type: AddressDto }) @Given() @RequiredObject(AddressDto) permanent_address?: AddressDto;
  @ApiProperty({ type: [IdentityFileDto] })
  @ObjectArray(IdentityFileDto)
  @ArrayMaxSize(10)
  identity_files: IdentityFileDto[];
}

export class CompanyFileDto {
  @OneOf(COMPANY_FILE_TYPES) file_type: string;
  @ApiProperty({ type: [String], description: 'Standard base64 of each document (a data: URL prefix is accepted)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  files: string[];
}

const CompanySection = () => RequiredObject(CompanyDto);
const PersonsSection = () => applyDecorators(ObjectArray(AssociatedPersonDto), ArrayMinSize(1), ArrayMaxSize(20));
const CompanyFilesSection = () => applyDecorators(ObjectArray(CompanyFileDto), ArrayMaxSize(COMPANY_FILE_TYPES.length));

/** The KYB application, following the OwlPay Harbor business-onboarding format (snake_case). */
export class KybApplicationDto {
  @ApiProperty({ type: CompanyDto }) @CompanySection() company: CompanyDto;

  @ApiProperty({ type: [AssociatedPersonDto], description: 'Exactly one representative and at least one applicant' })
  @PersonsSection()
  associated_persons: AssociatedPersonDto[];

  @ApiProperty({
    type: [CompanyFileDto],
    description: `One entry per file_type. Required groups: ${REQUIRED_COMPANY_FILE_TYPES.join(', ')}; the other file types are optional`,
  })
  @CompanyFilesSection()
  company_files: CompanyFileDto[];
}

/**
 * A correction (`PATCH …/onboarding`): any of the three sections, each complete, each replacing
 * that section of the last application. The result must pass every rule of a full application.
 */
export class KybApplicationPatchDto {
  @ApiPropertyOptional({ type: CompanyDto, description: 'Replaces the whole company section' }) @Given() @CompanySection() company?: CompanyDto;

  @ApiPropertyOptional({ type: [AssociatedPersonDto], description: 'Replaces every associated person (and their identity files)' })
  @Given()
  @PersonsSection()
  associated_persons?: AssociatedPersonDto[];

  @ApiPropertyOptional({ type: [CompanyFileDto], description: 'Replaces every company-file group' })
  @Given()
  @CompanyFilesSection()
  company_files?: CompanyFileDto[];
}
