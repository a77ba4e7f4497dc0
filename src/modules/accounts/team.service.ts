import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { listPage, Page, PageRequest } from '../../common/paging';
import { AuditLog, auditActor } from '../audit';
import type { DashboardRole } from '../../common/dashboard-roles';
import { DashboardPrincipal } from '../auth';
import { LINK_TTL_MS, AccountLinks } from './account-links.service';
import { mapInvitation, mapMember } from './account.mapper';
import { AlreadyMemberError, InvitationNotFoundError, LastOwnerError, MemberNotFoundError } from './accounts.errors';
import { AccountsRepository } from './accounts.repository';
import { ClientOf, DashboardSessions } from './dashboard-sessions.service';
import type { InvitationDto, InviteMemberDto, MemberDto, MemberRemovedDto, TeamSettingsDto } from './dto/team.dto';
import type { UserEntity } from './user.entity';

/** A merchant's dashboard team: its members and their roles, invitations, and the team's settings. */
@Injectable()
export class TeamService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: AccountsRepository,
    private readonly links: AccountLinks,
    private readonly audit: AuditLog,
    private readonly sessions: DashboardSessions,
  ) {}

  /** The e-mail addresses of the merchant's owners, who hear of what needs them (an endpoint the service disabled). */
  ownerEmails(merchantId: string): Promise<string[]> {
    return this.repository.ownerEmails(merchantId);
  }

  members(merchantId: string, query: PageRequest): Promise<Page<MemberDto>> {
    return listPage(
      query,
      'usr',
      (limit, after) => this.repository.membersPage(merchantId, limit, after),
      mapMember,
      (member) => member.userId,
    );
  }

  invitations(merchantId: string, query: PageRequest): Promise<Page<InvitationDto>> {
    return listPage(
      query,
      'inv',
      (limit, after) => this.repository.invitationsPage(merchantId, limit, after),
      (row) => mapInvitation(row),
      (invitation) => invitation.invitationId,
    );
  }

  /** An invitation e-mailed with a single-use link (7 days); one open at a time per e-mail, the newest. */
  async invite(principal: DashboardPrincipal, dto: InviteMemberDto, client: ClientOf): Promise<InvitationDto> {
    // One account per address, across merchants: an address that has one cannot be invited.
    if (await this.repository.findUserByEmail(dto.email)) throw new AlreadyMemberError();
    return this.dataSource.transaction(async (manager) => {
      await this.repository.revokeOpenInvitations(manager, principal.merchantId, dto.email);
      const invitation = {
        id: newId('inv'),
        merchantId: principal.merchantId,
        email: dto.email,
        role: dto.role,
        invitedByEmail: principal.email,
        expiresAt: new Date(Date.now() + LINK_TTL_MS.invitation),
      };
      await this.repository.insertInvitation(manager, invitation);
      await this.links.issue(manager, { purpose: 'invitation', userId: null, invitationId: invitation.id, email: dto.email });
      await this.audit.record(manager, auditActor(principal, client.ip), {
        action: 'invitation.created',
        objectId: invitation.id,
        details: { role: dto.role },
      });
      return mapInvitation({ ...invitation, createdAt: new Date(), acceptedAt: null, revokedAt: null });
    });
  }

  async revokeInvitation(principal: DashboardPrincipal, invitationId: string, client: ClientOf): Promise<InvitationDto> {
    return this.dataSource.transaction(async (manager) => {
      const invitation = isId('inv', invitationId) ? await this.repository.revokeInvitation(manager, principal.merchantId, invitationId) : undefined;
      if (!invitation) throw new InvitationNotFoundError();
      await this.audit.record(manager, auditActor(principal, client.ip), { action: 'invitation.revoked', objectId: invitation.id });
      return mapInvitation({ ...invitation, revokedAt: new Date() });
    });
  }

  /**
   * A new role for a member. The team keeps an owner (409 `last_owner`), and the member's sessions
   * end: the next one starts with the new rights.
   */
  async changeRole(principal: DashboardPrincipal, userId: string, role: DashboardRole, client: ClientOf): Promise<MemberDto> {
    return this.sessions.changing({ userId }, () =>
      this.dataSource.transaction(async (manager) => {
        const member = await this.lockedMember(manager, principal.merchantId, userId, role !== 'owner');
        if (member.role !== role) {
          await this.repository.updateRole(manager, member.id, role);
          await this.repository.endAllSessions(manager, member.id);
          await this.audit.record(manager, auditActor(principal, client.ip), {
            action: 'member.role_changed',
            objectId: member.id,
            details: { from: member.role, to: role },
          });
        }
        return mapMember({ ...member, role });
      }),
    );
  }

  /** The member leaves the team: its account, sessions and links go. The team keeps an owner. */
  async remove(principal: DashboardPrincipal, userId: string, client: ClientOf): Promise<MemberRemovedDto> {
    return this.sessions.changing({ userId }, () =>
      this.dataSource.transaction(async (manager) => {
        const member = await this.lockedMember(manager, principal.merchantId, userId, true);
        await this.repository.deleteUser(manager, member.id);
        await this.audit.record(manager, auditActor(principal, client.ip), { action: 'member.removed', objectId: member.id, details: { email: member.email } });
        return { userId: member.id, removed: true };
      }),
    );
  }

  async settings(merchantId: string): Promise<TeamSettingsDto> {
    return { requireTwoFactor: await this.repository.requiresTwoFactor(merchantId) };
  }

  async updateSettings(principal: DashboardPrincipal, dto: TeamSettingsDto, client: ClientOf): Promise<TeamSettingsDto> {
    return this.sessions.changing({ merchantId: principal.merchantId }, () =>
      this.dataSource.transaction(async (manager) => {
        await this.repository.setRequireTwoFactor(manager, principal.merchantId, dto.requireTwoFactor);
        await this.audit.record(manager, auditActor(principal, client.ip), {
          action: 'team.settings_changed',
          details: { requireTwoFactor: dto.requireTwoFactor },
        });
        return { requireTwoFactor: dto.requireTwoFactor };
      }),
    );
  }

  /**
   * The merchant's member, with the owners locked; `losesOwnership` when the change would leave it
   * no longer an owner, which the last owner may not.
   */
  private async lockedMember(manager: EntityManager, merchantId: string, userId: string, losesOwnership: boolean): Promise<UserEntity> {
    const owners = await this.repository.lockOwners(manager, merchantId);
    const member = isId('usr', userId) ? await this.repository.findMember(manager, merchantId, userId) : null;
    if (!member) throw new MemberNotFoundError();
    if (losesOwnership && member.role === 'owner' && owners.length <= 1) throw new LastOwnerError();
    return member;
  }
}
