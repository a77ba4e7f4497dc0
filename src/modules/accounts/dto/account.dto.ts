import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { trimmedLowerCase } from '../../../common/validation/transforms';
import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { DASHBOARD_ROLES } from '../../../common/dashboard-roles';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords';

export class SignUpDto {
  @ApiProperty({ example: 'ada@acme.example', description: 'Matched without regard to case' })
  @Transform(trimmedLowerCase)
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password: string;

  @ApiProperty({ example: 'Acme' })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  merchantName: string;
}

export class LoginDto {
  @ApiProperty({ example: 'ada@acme.example' })
  @Transform(trimmedLowerCase)
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;

  @ApiPropertyOptional({
    example: '123456',
    description: 'For a user with a second factor: a current code from the authenticator app, or one of the recovery codes (each works once)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  code?: string;
}

export class ChangePasswordDto {
  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  currentPassword: string;

  @ApiProperty({ example: 'a longer and newer passphrase', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  newPassword: string;
}

export class DashboardUserDto {
  @ApiProperty({ example: 'usr_0a1b2c3d4e5f60718293a4b5' })
  userId: string;

  @ApiProperty({ example: 'ada@acme.example' })
  email: string;

  @ApiProperty({ enum: DASHBOARD_ROLES })
  role: string;

  @ApiProperty({ description: 'Whether the address was confirmed from the e-mail sent to it' })
  emailVerified: boolean;

  @ApiProperty({ description: 'Whether login asks for a second factor (TOTP)' })
  twoFactorEnabled: boolean;
}

export class DashboardMerchantDto {
  @ApiProperty({ example: 'mer_0a1b2c3d4e5f60718293a4b5' })
  merchantId: string;

  @ApiProperty({ example: 'Acme' })
  name: string;

  @ApiProperty({
    enum: ['test', 'live'],
    example: 'test',
    description: "The mode of this service's API keys: with `test`, the dashboard offers the test helpers (sandbox money only)",
  })
  mode: 'test' | 'live';
}

/** Who is signed in, for which merchant, and the CSRF token every unsafe request of the session sends. */
export class AccountDto {
  @ApiProperty({ type: DashboardUserDto })
  user: DashboardUserDto;

  @ApiProperty({ type: DashboardMerchantDto })
  merchant: DashboardMerchantDto;

  @ApiProperty({ description: 'Send it as `X-CSRF-Token` on every POST, PATCH and DELETE of this session' })
  csrfToken: string;
}

export class AccountEnvelopeDto {
  @ApiProperty({ example: 'Signed in' })
  message: string;

  @ApiProperty({ type: AccountDto })
  response: AccountDto;
}

export class SessionDto {
  @ApiProperty({ example: 'ses_0a1b2c3d4e5f60718293a4b5' })
  sessionId: string;

  @ApiProperty({ description: 'The session this request was made with' })
  current: boolean;

  @ApiProperty({ example: '203.0.113.7' })
  ip: string;

  @ApiProperty({ example: 'Mozilla/5.0 …' })
  userAgent: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  lastSeenAt: string;

  @ApiProperty({ format: 'date-time', description: 'The absolute end; it ends earlier after 30 minutes unused' })
  expiresAt: string;
}

export class SessionListEnvelopeDto {
  @ApiProperty({ example: 'Sessions retrieved' })
  message: string;

  @ApiProperty({ type: [SessionDto] })
  response: SessionDto[];
}

export class SessionEndedDto {
  @ApiProperty({ example: 'ses_0a1b2c3d4e5f60718293a4b5' })
  sessionId: string;

  @ApiProperty({ example: true })
  ended: boolean;
}

export class SessionEndedEnvelopeDto {
  @ApiProperty({ example: 'Session ended' })
  message: string;

  @ApiProperty({ type: SessionEndedDto })
  response: SessionEndedDto;
}
