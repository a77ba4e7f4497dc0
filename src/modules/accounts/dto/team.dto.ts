import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { trimmedLowerCase } from '../../../common/validation/transforms';
import { IsBoolean, IsEmail, IsIn, MaxLength } from 'class-validator';
import { DASHBOARD_ROLES } from '../../../common/dashboard-roles';
import type { DashboardRole } from '../../../common/dashboard-roles';

export class InviteMemberDto {
  @ApiProperty({ example: 'grace@acme.example' })
  @Transform(trimmedLowerCase)
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ enum: DASHBOARD_ROLES, example: 'developer' })
  @IsIn(DASHBOARD_ROLES)
  role: DashboardRole;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: DASHBOARD_ROLES, example: 'viewer' })
  @IsIn(DASHBOARD_ROLES)
  role: DashboardRole;
}

export class TeamSettingsDto {
  @ApiProperty({ description: 'Every member signs in with a second factor; one without it can only enrol until it has' })
  @IsBoolean()
  requireTwoFactor: boolean;
}

export class TeamSettingsEnvelopeDto {
  @ApiProperty({ example: 'Team settings retrieved' })
  message: string;

  @ApiProperty({ type: TeamSettingsDto })
  response: TeamSettingsDto;
}

export class MemberDto {
  @ApiProperty({ example: 'usr_0a1b2c3d4e5f60718293a4b5' })
  userId: string;

  @ApiProperty({ example: 'grace@acme.example' })
  email: string;

  @ApiProperty({ enum: DASHBOARD_ROLES })
  role: string;

  @ApiProperty()
  emailVerified: boolean;

  @ApiProperty()
  twoFactorEnabled: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class MemberEnvelopeDto {
  @ApiProperty({ example: 'Role changed' })
  message: string;

  @ApiProperty({ type: MemberDto })
  response: MemberDto;
}

export class MemberListEnvelopeDto {
  @ApiProperty({ example: 'Members retrieved' })
  message: string;

  @ApiProperty({ type: [MemberDto] })
  response: MemberDto[];
}

export class MemberRemovedDto {
  @ApiProperty({ example: 'usr_0a1b2c3d4e5f60718293a4b5' })
  userId: string;

  @ApiProperty({ example: true })
  removed: boolean;
}

export class MemberRemovedEnvelopeDto {
  @ApiProperty({ example: 'Member removed' })
  message: string;

  @ApiProperty({ type: MemberRemovedDto })
  response: MemberRemovedDto;
}

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export class InvitationDto {
  @ApiProperty({ example: 'inv_0a1b2c3d4e5f60718293a4b5' })
  invitationId: string;

  @ApiProperty({ example: 'grace@acme.example' })
  email: string;

  @ApiProperty({ enum: DASHBOARD_ROLES })
  role: string;

  @ApiProperty({ example: 'ada@acme.example' })
  invitedBy: string;

  @ApiProperty({ enum: INVITATION_STATUSES })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', description: 'The e-mailed link works until then (7 days)' })
  expiresAt: string;
}

export class InvitationEnvelopeDto {
  @ApiProperty({ example: 'Invitation sent' })
  message: string;

  @ApiProperty({ type: InvitationDto })
  response: InvitationDto;
}

export class InvitationListEnvelopeDto {
  @ApiProperty({ example: 'Invitations retrieved' })
  message: string;

  @ApiProperty({ type: [InvitationDto] })
  response: InvitationDto[];
}
