import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ListQuery } from '../../../common/http/list.query';

export class AuditLogQuery extends ListQuery {
  @ApiPropertyOptional({ description: 'Only the entries of this user', example: 'usr_0a1b2c3d4e5f60718293a4b5' })
  @IsOptional()
  @IsString()
  @Matches(/^usr_[0-9a-f]{24}$/, { message: 'userId must be a user id (usr_…)' })
  userId?: string;

  @ApiPropertyOptional({ description: 'Only the entries of this action', example: 'api_key.rolled' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z_]+\.[a-z_]+$/, { message: 'action must be an action name such as api_key.created' })
  action?: string;
}

export class AuditUserDto {
  @ApiProperty({ type: String, nullable: true, example: 'usr_0a1b2c3d4e5f60718293a4b5', description: 'Null for a failed login of an e-mail' })
  userId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'ada@acme.example' })
  email: string | null;
}

/** One change made from the dashboard, or a sign-in. */
export class AuditEntryDto {
  @ApiProperty({ example: 'aud_0a1b2c3d4e5f60718293a4b5' })
  auditEntryId: string;

  @ApiProperty({
    example: 'api_key.rolled',
    description:
      '`<object>.<verb>`: `user.signed_up`, `user.logged_in`, `user.login_failed`, `user.logged_out`, `user.password_changed`, `user.password_reset`, ' +
      '`user.email_verified`, `two_factor.enabled`, `two_factor.disabled`, `two_factor.recovery_code_used`, `session.ended`, `api_key.created`, ' +
      '`api_key.rolled`, `api_key.revoked`, `invitation.created`, `invitation.revoked`, `invitation.accepted`, `member.role_changed`, `member.removed`, ' +
      '`team.settings_changed`, `payment_intent.confirmed`, `withdrawal.created`',
  })
  action: string;

  @ApiProperty({ type: String, nullable: true, example: 'key_0a1b2c3d4e5f60718293a4b5', description: 'The id of what changed' })
  objectId: string | null;

  @ApiProperty({ type: AuditUserDto, nullable: true, description: 'Who did it' })
  user: AuditUserDto | null;

  @ApiProperty({ example: '203.0.113.7', description: "The client's IP address" })
  ip: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { expiresInHours: 1 }, description: 'What else says what changed; never a secret' })
  details: Record<string, string | number | boolean | null>;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class AuditEntryListEnvelopeDto {
  @ApiProperty({ example: 'Audit log retrieved' })
  message: string;

  @ApiProperty({ type: [AuditEntryDto] })
  response: AuditEntryDto[];
}

export class AuditEntryEnvelopeDto {
  @ApiProperty({ example: 'Audit entry retrieved' })
  message: string;

  @ApiProperty({ type: AuditEntryDto })
  response: AuditEntryDto;
}
