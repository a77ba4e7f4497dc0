import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { DASHBOARD_PATH } from './accounts.routes';
import { clientOf } from './client';
import {
  ChangeRoleDto,
  InvitationDto,
  InvitationEnvelopeDto,
  InvitationListEnvelopeDto,
  InviteMemberDto,
  MemberDto,
  MemberEnvelopeDto,
  MemberListEnvelopeDto,
  MemberRemovedDto,
  MemberRemovedEnvelopeDto,
  TeamSettingsDto,
  TeamSettingsEnvelopeDto,
} from './dto/team.dto';
import { TeamService } from './team.service';

const INVITATION_EXAMPLE = {
  invitationId: 'inv_0a1b2c3d4e5f60718293a4b5',
  email: 'grace@acme.example',
  role: 'developer',
  invitedBy: 'ada@acme.example',
  status: 'pending',
  createdAt: '2026-11-25T10:00:00.000Z',
  expiresAt: '2026-12-02T10:00:00.000Z',
};

/** The merchant's dashboard team: members and roles, invitations, and the team's settings. Owners change it; everyone reads it. */
@ApiTags('Dashboard: team')
@Controller(DASHBOARD_PATH)
export class TeamController {
  constructor(private readonly team: TeamService) {}

  @Get('members')
  @DashboardOperation(
    {},
    {
      operationId: 'listMembers',
      summary: "The team's members, newest first",
      unsafe: false,
      success: { status: 200, type: MemberListEnvelopeDto, description: 'A page of members', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Members retrieved')
  async members(@CurrentUser() user: DashboardPrincipal, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<MemberDto[]> {
    return sendPage(reply, await this.team.members(user.merchantId, query));
  }

  @Post('members')
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'inviteMember',
      summary: 'Invite someone by e-mail with a role',
      description: 'A single-use link (7 days) is mailed; a newer invitation of the same e-mail voids the older one.',
      unsafe: true,
      success: { status: 201, type: InvitationEnvelopeDto, description: 'Invited', example: { message: 'Invitation sent', response: INVITATION_EXAMPLE } },
      body: { type: InviteMemberDto, example: { email: 'grace@acme.example', role: 'developer' } },
      errors: ['already_member'],
    },
  )
  @Answer('Invitation sent')
  invite(@CurrentUser() user: DashboardPrincipal, @Body() dto: InviteMemberDto, @Req() request: FastifyRequest): Promise<InvitationDto> {
    return this.team.invite(user, dto, clientOf(request));
  }

  @Patch('members/:userId')
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'changeMemberRole',
      summary: "Change a member's role",
      description: "The member's sessions end: the next one has the new rights. The team keeps at least one owner.",
      unsafe: true,
      success: { status: 200, type: MemberEnvelopeDto, description: 'Changed' },
      body: { type: ChangeRoleDto, example: { role: 'viewer' } },
      errors: ['resource_not_found', 'last_owner'],
    },
  )
  @Answer('Role changed')
  changeRole(
    @CurrentUser() user: DashboardPrincipal,
    @Param('userId') userId: string,
    @Body() dto: ChangeRoleDto,
    @Req() request: FastifyRequest,
  ): Promise<MemberDto> {
    return this.team.changeRole(user, userId, dto.role, clientOf(request));
  }

  @Delete('members/:userId')
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'removeMember',
      summary: 'Remove a member from the team',
      description: 'Its account and sessions end at once. The team keeps at least one owner.',
      unsafe: true,
      success: { status: 200, type: MemberRemovedEnvelopeDto, description: 'Removed' },
      errors: ['resource_not_found', 'last_owner'],
    },
  )
  @Answer('Member removed')
  remove(@CurrentUser() user: DashboardPrincipal, @Param('userId') userId: string, @Req() request: FastifyRequest): Promise<MemberRemovedDto> {
    return this.team.remove(user, userId, clientOf(request));
  }

  @Get('invitations')
  @DashboardOperation(
    {},
    {
      operationId: 'listInvitations',
      summary: "The team's invitations, newest first, with their status",
      unsafe: false,
      success: { status: 200, type: InvitationListEnvelopeDto, description: 'A page of invitations', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Invitations retrieved')
  async invitations(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InvitationDto[]> {
    return sendPage(reply, await this.team.invitations(user.merchantId, query));
  }

  @Delete('invitations/:invitationId')
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'revokeInvitation',
      summary: 'Revoke a pending invitation: its link stops working',
      unsafe: true,
      success: { status: 200, type: InvitationEnvelopeDto, description: 'Revoked' },
      errors: ['resource_not_found'],
    },
  )
  @Answer('Invitation revoked')
  revokeInvitation(
    @CurrentUser() user: DashboardPrincipal,
    @Param('invitationId') invitationId: string,
    @Req() request: FastifyRequest,
  ): Promise<InvitationDto> {
    return this.team.revokeInvitation(user, invitationId, clientOf(request));
  }

  @Get('team-settings')
  @DashboardOperation(
    {},
    {
      operationId: 'getTeamSettings',
      summary: "The team's settings",
      unsafe: false,
      success: { status: 200, type: TeamSettingsEnvelopeDto, description: 'The settings' },
    },
  )
  @Answer('Team settings retrieved')
  settings(@CurrentUser() user: DashboardPrincipal): Promise<TeamSettingsDto> {
    return this.team.settings(user.merchantId);
  }

  @Put('team-settings')
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'updateTeamSettings',
      summary: "Change the team's settings (require a second factor of every member)",
      description: 'Once required, a member without a second factor can only enrol one (or sign out) until it has.',
      unsafe: true,
      success: { status: 200, type: TeamSettingsEnvelopeDto, description: 'Changed' },
      body: { type: TeamSettingsDto, example: { requireTwoFactor: true } },
    },
  )
  @Answer('Team settings changed')
  updateSettings(@CurrentUser() user: DashboardPrincipal, @Body() dto: TeamSettingsDto, @Req() request: FastifyRequest): Promise<TeamSettingsDto> {
    return this.team.updateSettings(user, dto, clientOf(request));
  }
}
