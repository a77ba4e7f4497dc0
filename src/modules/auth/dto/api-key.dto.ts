import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { API_KEY_PERMISSIONS, type ApiKeyPermission } from '../api-key-permissions';

/** The longest a rolled key keeps working beside its successor: a week. */
export const MAX_ROLL_HOURS = 168;

export class CreateApiKeyDto {
  @ApiProperty({ example: 'Production server', description: 'What people call the key' })
  @IsString()
  @Length(1, 100)
  @IsDisplayText()
  name: string;

  @ApiProperty({
    required: false,
    enum: API_KEY_PERMISSIONS,
    isArray: true,
    example: ['read', 'write'],
    description:
      "What the key may do; default every permission the creator's role may give (an owner all three, a developer `read` and `write`). A developer asking for `move_money` is refused with 403 `role_forbidden`.",
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(API_KEY_PERMISSIONS.length)
  @IsIn(API_KEY_PERMISSIONS, { each: true })
  permissions?: ApiKeyPermission[];
}

export class RollApiKeyDto {
  @ApiProperty({
    required: false,
    minimum: 0,
    maximum: MAX_ROLL_HOURS,
    default: 0,
    example: 1,
    description: 'Hours the old key keeps working beside the new one (0: it stops now)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_ROLL_HOURS)
  expiresInHours?: number;
}

export class ApiKeyCreatorDto {
  @ApiProperty({ example: 'usr_0a1b2c3d4e5f60718293a4b5' })
  userId: string;

  @ApiProperty({ example: 'ada@acme.example' })
  email: string;
}

export const API_KEY_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;

/** A key as lists show it: never its secret. */
export class ApiKeyDto {
  @ApiProperty({ example: 'key_0a1b2c3d4e5f60718293a4b5' })
  apiKeyId: string;

  @ApiProperty({ example: 'Production server' })
  name: string;

  @ApiProperty({ example: 'mk_test', description: 'Test or live' })
  prefix: string;

  @ApiProperty({ example: 'x9Qz', description: 'The last four characters of the key' })
  lastFour: string;

  @ApiProperty({
    enum: API_KEY_PERMISSIONS,
    isArray: true,
    example: ['read', 'write'],
    description:
      'What the key may do: `read` every GET; `write` businesses, KYB, quotes, creating payment intents and the test helpers; ' +
      '`move_money` withdrawals, confirming a payment intent, international payment intents and vault transfers',
  })
  permissions: ApiKeyPermission[];

  @ApiProperty({ enum: API_KEY_STATUSES, description: '`expiring`: rolled, working until `expiresAt`' })
  status: string;

  @ApiProperty({ type: ApiKeyCreatorDto, nullable: true, description: 'Who created it from the dashboard; null for a key made by an operator' })
  createdBy: ApiKeyCreatorDto | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'To the minute' })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt: string | null;
}

/** A new key: the only answer that carries its secret. */
export class IssuedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ example: 'mk_test_3yZe7dV1kQ2m9Lr5xN8pW4tH6sJ0aB2cD4eF', description: 'The key itself: shown now and never again' })
  apiKey: string;
}

export class IssuedApiKeyEnvelopeDto {
  @ApiProperty({ example: 'API key created' })
  message: string;

  @ApiProperty({ type: IssuedApiKeyDto })
  response: IssuedApiKeyDto;
}

export class ApiKeyEnvelopeDto {
  @ApiProperty({ example: 'API key revoked' })
  message: string;

  @ApiProperty({ type: ApiKeyDto })
  response: ApiKeyDto;
}

export class ApiKeyListEnvelopeDto {
  @ApiProperty({ example: 'API keys retrieved' })
  message: string;

  @ApiProperty({ type: [ApiKeyDto] })
  response: ApiKeyDto[];
}
