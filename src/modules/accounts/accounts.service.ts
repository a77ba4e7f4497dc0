import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { violates } from '../../common/persistence/constraint-violation';
import { isId, newId } from '../../common/ids/ids';
import { AuditLog, auditActor } from '../audit';
import { DashboardPrincipal, MerchantsService, RateLimitsService } from '../auth';
import { AccountLinks } from './account-links.service';
import { mapAccount, mapSession } from './account.mapper';
import { AccountsRepository } from './accounts.repository';
import {
  EmailTakenError,
  InvalidCredentialsError,
  InvalidLinkError,
  InvalidTwoFactorCodeError,
  SessionNotFoundError,
  TwoFactorRequiredError,
} from './accounts.errors';
import { ClientOf, DashboardSessions, SignedIn } from './dashboard-sessions.service';
import type { AccountDto, ChangePasswordDto, LoginDto, SessionDto, SignUpDto } from './dto/account.dto';
import type { AcceptInvitationDto, PasswordResetDto } from './dto/links.dto';
import { hashPassword, verifyPassword } from './passwords';
import { TwoFactor } from './two-factor.service';
import type { UserEntity } from './user.entity';

const EMAIL_UNIQUE = 'uq_users_email';

/**
 * Merchant Dashboard accounts: sign-up, login (with the second factor), logout, passwords and
 * their reset, e-mail verification, joining a team by invitation, and the user's sessions.
 */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: AccountsRepository,
    private readonly sessions: DashboardSessions,
    private readonly merchants: MerchantsService,
    private readonly limits: RateLimitsService,
    private readonly links: AccountLinks,
    private readonly twoFactor: TwoFactor,
    private readonly audit: AuditLog,
  ) {}

  /** A merchant and its first user, `owner`, signed in, and a link to verify the e-mail on its way: one transaction. */
  async signUp(dto: SignUpDto, client: ClientOf): Promise<SignedIn> {
    if (await this.repository.findUserByEmail(dto.email)) throw new EmailTakenError();
    const passwordHash = await hashPassword(dto.password);
    return this.createUser(client, async (manager) => {
      const merchant = await this.merchants.createInTransaction(manager, dto.merchantName);
      const user = { id: newId('usr'), merchantId: merchant.merchantId, email: dto.email, passwordHash, role: 'owner' as const, emailVerifiedAt: null };
      await this.repository.insertUser(manager, user);
      await this.links.issue(manager, { purpose: 'verify_email', userId: user.id, invitationId: null, email: user.email });
      await this.audit.record(manager, auditActor({ ...user, userId: user.id }, client.ip), { action: 'user.signed_up', objectId: user.id });
      return { user: { ...user, totpEnabledAt: null }, merchant };
    });
  }

  /**
   * A new session for the right e-mail and password (and second factor, when the user has one).
   * Failures are counted per e-mail and per client IP (429 past either, before any hashing); an
   * unknown e-mail is refused exactly like a wrong password, after the same hashing work.
   */
  async login(dto: LoginDto, client: ClientOf): Promise<SignedIn> {
    await this.limits.assertAccountAttemptsLeft(dto.email, client.ip);
    const user = await this.repository.findUserByEmail(dto.email);
    if (!(await verifyPassword(user?.passwordHash, dto.password)) || !user) {
      await this.failedLogin(dto.email, client, user, 'password');
      throw new InvalidCredentialsError();
    }
    let secondFactor: string | undefined;
    if (user.totpEnabledAt) {
      // The password was right: asking for the code tells no more than a refusal would.
      if (dto.code === undefined) throw new TwoFactorRequiredError();
      secondFactor = await this.twoFactor.check(user, dto.code);
      if (!secondFactor) {
        await this.failedLogin(dto.email, client, user, 'second_factor');
        throw new InvalidTwoFactorCodeError();
      }
    }
    const merchant = (await this.merchants.find(user.merchantId))!;
    return this.dataSource.transaction(async (manager) => {
      const session = await this.sessions.start(user.id, client, manager);
      const actor = auditActor({ ...user, userId: user.id }, client.ip);
      await this.audit.record(manager, actor, { action: 'user.logged_in', objectId: session.sessionId, details: { secondFactor: secondFactor ?? null } });
      if (secondFactor === 'recovery_code') await this.audit.record(manager, actor, { action: 'two_factor.recovery_code_used', objectId: user.id });
      return { account: mapAccount(user, merchant, session.csrfToken), session };
    });
  }

  async logout(principal: DashboardPrincipal, client: ClientOf): Promise<{ sessionId: string; ended: true }> {
    await this.sessions.changing(principal, () =>
      this.dataSource.transaction(async (manager) => {
        await this.repository.endSession(manager, principal.userId, principal.sessionId);
        await this.audit.record(manager, auditActor(principal, client.ip), { action: 'user.logged_out', objectId: principal.sessionId });
      }),
    );
    return { sessionId: principal.sessionId, ended: true };
  }

  /**
   * A new password, when the current one is given right (wrong tries count as failed logins of the
   * account). Every session of the user ends, this one too, and a new one begins, and every
   * outstanding reset link is void: one transaction.
   */
  async changePassword(principal: DashboardPrincipal, dto: ChangePasswordDto, client: ClientOf): Promise<SignedIn> {
    const user = (await this.repository.findUser(principal.userId))!;
    await this.limits.assertAccountAttemptsLeft(user.email, client.ip);
    if (!(await verifyPassword(user.passwordHash, dto.currentPassword))) {
      await this.failedLogin(user.email, client, user, 'password');
      throw new InvalidCredentialsError();
    }
    const passwordHash = await hashPassword(dto.newPassword);
    const merchant = (await this.merchants.find(user.merchantId))!;
    return this.sessions.changing(principal, () =>
      this.dataSource.transaction(async (manager) => {
        await this.repository.updatePassword(manager, user.id, passwordHash);
        await this.repository.voidResetLinks(manager, user.id);
        await this.audit.record(manager, auditActor(principal, client.ip), { action: 'user.password_changed', objectId: user.id });
        const session = await this.sessions.restart(manager, user.id, client);
        return { account: mapAccount(user, merchant, session.csrfToken), session };
      }),
    );
  }

  /**
   * A reset link for the e-mail, when it has an account. The same answer, and the same work (a
   * link row and its outbox entry either way; the worker mails only real accounts), whether or not
   * it does. Each request counts as an attempt on the e-mail and from the IP.
   */
  async requestPasswordReset(email: string, client: ClientOf): Promise<void> {
    await this.limits.assertAccountAttemptsLeft(email, client.ip);
    await this.limits.recordAccountAttempt(email, client.ip);
    const user = await this.repository.findUserByEmail(email);
    await this.dataSource.transaction((manager) =>
      this.links.issue(manager, { purpose: 'reset_password', userId: user?.id ?? null, invitationId: null, email }),
    );
  }

  /**
   * A new password from an e-mailed link (once, within the hour): every session of the user ends
   * and every other reset link is void. Login follows, second factor and all.
   */
  async resetPassword(dto: PasswordResetDto, client: ClientOf): Promise<void> {
    const passwordHash = await hashPassword(dto.newPassword);
    const userId = await this.dataSource.transaction(async (manager) => {
      const link = await this.links.consume(manager, 'reset_password', dto.token);
      const user = link.userId ? await this.repository.findUser(link.userId, manager) : null;
      if (!user) throw new InvalidLinkError();
      await this.repository.updatePassword(manager, user.id, passwordHash);
      // The other links mailed before this one die with it.
      await this.repository.voidResetLinks(manager, user.id);
      await this.repository.endAllSessions(manager, user.id);
      // Proof of the mailbox, too.
      await this.repository.markEmailVerified(manager, user.id);
      await this.audit.record(manager, auditActor({ ...user, userId: user.id }, client.ip), { action: 'user.password_reset', objectId: user.id });
      return user.id;
    });
    await this.sessions.stale({ userId });
  }

  async verifyEmail(token: string, client: ClientOf): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const link = await this.links.consume(manager, 'verify_email', token);
      const user = link.userId ? await this.repository.findUser(link.userId, manager) : null;
      if (!user) throw new InvalidLinkError();
      await this.repository.markEmailVerified(manager, user.id);
      await this.audit.record(manager, auditActor({ ...user, userId: user.id }, client.ip), { action: 'user.email_verified', objectId: user.id });
    });
  }

  /** Another verification link, for a signed-in user whose address is not verified yet (nothing to do otherwise). */
  async resendVerification(principal: DashboardPrincipal): Promise<void> {
    const user = (await this.repository.findUser(principal.userId))!;
    if (user.emailVerifiedAt) return;
    await this.dataSource.transaction((manager) =>
      this.links.issue(manager, { purpose: 'verify_email', userId: user.id, invitationId: null, email: user.email }),
    );
  }

  /** A new member of the inviting team, with the invitation's role and e-mail (verified by the link), signed in. */
  async acceptInvitation(dto: AcceptInvitationDto, client: ClientOf): Promise<SignedIn> {
    const passwordHash = await hashPassword(dto.password);
    return this.createUser(client, async (manager) => {
      const link = await this.links.consume(manager, 'invitation', dto.token);
      const invitation = link.invitationId ? await this.repository.acceptInvitation(manager, link.invitationId) : undefined;
      if (!invitation) throw new InvalidLinkError();
      const user = {
        id: newId('usr'),
        merchantId: invitation.merchantId,
        email: invitation.email,
        passwordHash,
        role: invitation.role,
        emailVerifiedAt: new Date(),
      };
      await this.repository.insertUser(manager, user);
      await this.audit.record(manager, auditActor({ ...user, userId: user.id }, client.ip), {
        action: 'invitation.accepted',
        objectId: invitation.id,
        details: { role: user.role },
      });
      return { user: { ...user, totpEnabledAt: null }, merchant: (await this.merchants.find(invitation.merchantId))! };
    });
  }

  async me(principal: DashboardPrincipal, csrfToken: string): Promise<AccountDto> {
    const user = (await this.repository.findUser(principal.userId))!;
    return mapAccount(user, (await this.merchants.find(user.merchantId))!, csrfToken);
  }

  async endSession(principal: DashboardPrincipal, sessionId: string, client: ClientOf): Promise<{ sessionId: string; ended: true }> {
    await this.sessions.changing(principal, () =>
      this.dataSource.transaction(async (manager) => {
        // Only a well-formed id reaches the database (a NUL byte in a path would make PostgreSQL fail).
        if (!isId('ses', sessionId) || !(await this.repository.endSession(manager, principal.userId, sessionId))) throw new SessionNotFoundError();
        await this.audit.record(manager, auditActor(principal, client.ip), { action: 'session.ended', objectId: sessionId });
      }),
    );
    return { sessionId, ended: true };
  }

  async listSessions(principal: DashboardPrincipal): Promise<SessionDto[]> {
    return (await this.repository.sessionsOf(principal.userId)).map((session) => mapSession(session, principal.sessionId));
  }

  /** A user made in one transaction with its first session; two at once with one e-mail: the second loses to the unique index. */
  private async createUser(
    client: ClientOf,
    create: (manager: EntityManager) => Promise<{ user: Parameters<typeof mapAccount>[0]; merchant: Parameters<typeof mapAccount>[1] }>,
  ): Promise<SignedIn> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const { user, merchant } = await create(manager);
        const session = await this.sessions.start(user.id, client, manager);
        return { account: mapAccount(user, merchant, session.csrfToken), session };
      });
    } catch (err) {
      if (violates(err, EMAIL_UNIQUE)) throw new EmailTakenError();
      throw err;
    }
  }

  /**
   * Counts the failure against the e-mail and the IP, and records it in the account's audit log
   * when the e-mail is one (in the background: the refusal must take the same time either way).
   */
  private async failedLogin(email: string, client: ClientOf, user: UserEntity | null, reason: 'password' | 'second_factor'): Promise<void> {
    await this.limits.recordAccountAttempt(email, client.ip);
    if (user)
      this.audit.recordInBackground(auditActor({ ...user, userId: user.id }, client.ip), {
        action: 'user.login_failed',
        objectId: user.id,
        details: { reason },
      });
  }
}
