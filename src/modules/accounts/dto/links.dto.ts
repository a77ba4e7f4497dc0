import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { trimmedLowerCase } from '../../../common/validation/transforms';
import { IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords';

export class LinkTokenDto {
  @ApiProperty({ example: 'q0mJ2pWm3kW0yq1Yb0n8l0O7hB9kYw3V8q6H2d1c4f0', description: 'The `token` of the e-mailed link (after `#token=`)' })
  @IsString()
  @MaxLength(64)
  token: string;
}

export class PasswordResetRequestDto {
  @ApiProperty({ example: 'ada@acme.example' })
  @Transform(trimmedLowerCase)
  @IsString()
  @MaxLength(254)
  email: string;
}

export class PasswordResetDto extends LinkTokenDto {
  @ApiProperty({ example: 'a longer and newer passphrase', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  newPassword: string;
}

export class AcceptInvitationDto extends LinkTokenDto {
  @ApiProperty({ example: 'correct horse battery staple', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password: string;
}

/** The same answer whether or not the e-mail has an account. */
export class AcceptedDto {
  @ApiProperty({ example: true })
  accepted: boolean;
}

export class AcceptedEnvelopeDto {
  @ApiProperty({ example: 'If an account has this e-mail, a link is on its way' })
  message: string;

  @ApiProperty({ type: AcceptedDto })
  response: AcceptedDto;
}

export class DoneDto {
  @ApiProperty({ example: true })
  done: boolean;
}

export class DoneEnvelopeDto {
  @ApiProperty({ example: 'E-mail verified' })
  message: string;

  @ApiProperty({ type: DoneDto })
  response: DoneDto;
}
