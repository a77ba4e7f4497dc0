import type { Merchant } from '../auth';
import type { DashboardSessionEntity } from './dashboard-session.entity';
import type { AccountDto, SessionDto } from './dto/account.dto';
import type { UserEntity } from './user.entity';

export function mapAccount(user: Pick<UserEntity, 'id' | 'email' | 'role' | 'emailVerifiedAt'>, merchant: Merchant, csrfToken: string): AccountDto {
  return {
    user: { userId: user.id, email: user.email, role: user.role, emailVerified: user.emailVerifiedAt !== null },
    merchant: { merchantId: merchant.merchantId, name: merchant.name },
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
