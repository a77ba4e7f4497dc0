import type { Merchant } from '../auth';
import type { DashboardSessionEntity } from './dashboard-session.entity';
import type { AccountDto, SessionDto } from './dto/account.dto';
import type { InvitationDto, MemberDto } from './dto/team.dto';
import type { InvitationRow, MemberRow } from './accounts.repository';
import type { UserEntity } from './user.entity';

export function mapAccount(
  user: Pick<UserEntity, 'id' | 'email' | 'role' | 'emailVerifiedAt' | 'totpEnabledAt'>,
  merchant: Merchant,
  csrfToken: string,
): AccountDto {
  return {
    user: { userId: user.id, email: user.email, role: user.role, emailVerified: user.emailVerifiedAt !== null, twoFactorEnabled: user.totpEnabledAt !== null },
    merchant: { merchantId: merchant.merchantId, name: merchant.name, mode: merchant.mode },
    csrfToken,
  };
}

export function mapSession(session: DashboardSessionEntity, currentSessionId: string): SessionDto {
  return {
    sessionId: session.id,
    current: session.id === currentSessionId,
    ip: session.ip,
    userAgent: session.userAgent,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
  };
}

export function mapMember(member: MemberRow): MemberDto {
  return {
    userId: member.id,
    email: member.email,
    role: member.role,
    emailVerified: member.emailVerifiedAt !== null,
    twoFactorEnabled: member.totpEnabledAt !== null,
    createdAt: member.createdAt.toISOString(),
  };
}

export function mapInvitation(invitation: InvitationRow, now = Date.now()): InvitationDto {
  const status = invitation.acceptedAt ? 'accepted' : invitation.revokedAt ? 'revoked' : invitation.expiresAt.getTime() <= now ? 'expired' : 'pending';
  return {
    invitationId: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invitedBy: invitation.invitedByEmail,
    status,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}
