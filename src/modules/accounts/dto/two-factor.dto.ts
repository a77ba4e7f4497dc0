import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { AccountDto } from './account.dto';

export class TwoFactorCodeDto {
  @ApiProperty({ example: '123456', description: 'A current code from the authenticator app, or (to turn it off) a recovery code' })
  @IsString()
  @MaxLength(32)
  code: string;
}

/** A secret to add to an authenticator app, as text and as the URI a QR code carries. */
export class TwoFactorEnrolmentDto {
  @ApiProperty({ example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', description: 'Base32, for typing into an app by hand' })
  secret: string;

  @ApiProperty({
    example: 'otpauth://totp/Merchant%20Payments:ada%40acme.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Merchant%20Payments',
    description: 'Render it as a QR code for the app to scan',
  })
  otpauthUri: string;
}

export class TwoFactorEnrolmentEnvelopeDto {
  @ApiProperty({ example: 'Two-factor enrolment started' })
  message: string;

  @ApiProperty({ type: TwoFactorEnrolmentDto })
  response: TwoFactorEnrolmentDto;
}

/** The second factor is on: the new session's account, and the recovery codes, shown this once. */
export class TwoFactorEnabledDto extends AccountDto {
  @ApiProperty({ type: [String], example: ['abcde-fgh23', 'k4m5n-p6q7r'], description: 'Ten single-use codes, each replacing a code once; shown only now' })
  recoveryCodes: string[];
}

export class TwoFactorEnabledEnvelopeDto {
  @ApiProperty({ example: 'Two-factor authentication on' })
  message: string;

  @ApiProperty({ type: TwoFactorEnabledDto })
  response: TwoFactorEnabledDto;
}
