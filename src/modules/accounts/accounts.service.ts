import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { DashboardPrincipal, MerchantsService, RateLimitsService } from '../auth';
import { mapAccount, mapSession } from './account.mapper';
import { AccountsRepository } from './accounts.repository';
import { EmailTakenError, InvalidCredentialsError, SessionNotFoundError } from './accounts.errors';
import { ClientOf, DashboardSessions, StartedSession } from './dashboard-sessions.service';
import type { AccountDto, ChangePasswordDto, LoginDto, SessionDto, SignUpDto } from './dto/account.dto';
import { hashPassword, verifyPassword } from './passwords';

const EMAIL_UNIQUE = 'uq_users_email';

/** An account answer, and the session cookie that goes with it. */
export interface SignedIn {
  account: AccountDto;
  session: StartedSession;
}

/** Merchant Dashboard accounts: sign-up, login, logout, who is signed in, and the user's sessions. */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: AccountsRepository,
    private readonly sessions: DashboardSessions,
    private readonly merchants: MerchantsService,
    private readonly limits: RateLimitsService,
  ) {}

  /** A merchant and its first user, `owner`, signed in: one transaction. */
  async signUp(dto: SignUpDto, client: ClientOf): Promise<SignedIn> {
    if (await this.repository.findUserByEmail(dto.email)) throw new EmailTakenError();
    const passwordHash = await hashPassword(dto.password);
    try {
      return await this.dataSource.transaction(async (manager) => {
        const merchant = await this.merchants.createInTransaction(manager, dto.merchantName);
        const user = { id: newId('usr'), merchantId: merchant.merchantId, email: dto.email, passwordHash, role: 'owner' as const, emailVerifiedAt: null };
        await this.repository.insertUser(manager, user);
        const session = await this.sessions.start(user.id, client, manager);
        return { account: mapAccount(user, merchant, session.csrfToken), session };
      });
    } catch (err) {
      // Two sign-ups with one e-mail at once: the second loses to the unique index.
      if (err instanceof QueryFailedError && (err.driverError as { constraint?: string }).constraint === EMAIL_UNIQUE) throw new EmailTakenError();
      throw err;
    }
  }

  /**
   * A new session for the right e-mail and password. Failures are counted per e-mail and per
   * client IP (429 past either, before any hashing); an unknown e-mail is refused exactly like a
   * wrong password, after the same hashing work.
   */
  async login(dto: LoginDto, client: ClientOf): Promise<SignedIn> {
    await this.limits.assertLoginAttemptsLeft(dto.email, client.ip);
    const user = await this.repository.findUserByEmail(dto.email);
    if (!(await verifyPassword(user?.passwordHash, dto.password)) || !user) {
      await this.limits.recordLoginFailure(dto.email, client.ip);
      throw new InvalidCredentialsError();
    }
    const merchant = (await this.merchants.find(user.merchantId))!;
    const session = await this.sessions.start(user.id, client);
    return { account: mapAccount(user, merchant, session.csrfToken), session };
  }

  /**
   * A new password, when the current one is given right (wrong tries count as failed logins of the
   * account). Every session of the user ends, this one too, and a new one begins: one transaction.
   */
  async changePassword(principal: DashboardPrincipal, dto: ChangePasswordDto, client: ClientOf): Promise<SignedIn> {
    const user = (await this.repository.findUser(principal.userId))!;
    await this.limits.assertLoginAttemptsLeft(user.email, client.ip);
    if (!(await verifyPassword(user.passwordHash, dto.currentPassword))) {
      await this.limits.recordLoginFailure(user.email, client.ip);
      throw new InvalidCredentialsError();
    }
    const passwordHash = await hashPassword(dto.newPassword);
    const merchant = (await this.merchants.find(user.merchantId))!;
    return this.dataSource.transaction(async (manager) => {
      await this.repository.updatePassword(manager, user.id, passwordHash);
      await this.repository.endAllSessions(manager, user.id);
      const session = await this.sessions.start(user.id, client, manager);
      return { account: mapAccount(user, merchant, session.csrfToken), session };
    });
  }

  async me(principal: DashboardPrincipal, csrfToken: string): Promise<AccountDto> {
    const user = (await this.repository.findUser(principal.userId))!;
    return mapAccount(user, (await this.merchants.find(user.merchantId))!, csrfToken);
  }

  async endSession(principal: DashboardPrincipal, sessionId: string): Promise<{ sessionId: string; ended: true }> {
    // Only a well-formed id reaches the database (a NUL byte in a path would make PostgreSQL fail).
    if (!isId('ses', sessionId) || !(await this.repository.endSession(principal.userId, sessionId))) throw new SessionNotFoundError();
    return { sessionId, ended: true };
  }

  async listSessions(principal: DashboardPrincipal): Promise<SessionDto[]> {
    return (await this.repository.sessionsOf(principal.userId)).map((session) => mapSession(session, principal.sessionId));
  }
}
