import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { KeysetList } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { DashboardRole } from '../../common/dashboard-roles';
import { AccountTokenEntity, TokenPurpose } from './account-token.entity';
import { DashboardSessionEntity } from './dashboard-session.entity';
import { InvitationEntity } from './invitation.entity';
import { RecoveryCodeEntity } from './recovery-code.entity';
import { TeamSettingsEntity } from './team-settings.entity';
import { UserEntity } from './user.entity';

export type NewUser = Pick<UserEntity, 'id' | 'merchantId' | 'email' | 'passwordHash' | 'role' | 'emailVerifiedAt'>;
export type NewSession = Pick<DashboardSessionEntity, 'id' | 'userId' | 'tokenHash' | 'lastSeenAt' | 'expiresAt' | 'ip' | 'userAgent'>;
export type NewToken = Pick<AccountTokenEntity, 'id' | 'purpose' | 'userId' | 'invitationId' | 'email' | 'expiresAt'>;
export type NewInvitation = Pick<InvitationEntity, 'id' | 'merchantId' | 'email' | 'role' | 'invitedByEmail' | 'expiresAt'>;

/** A live session with what a request needs of its user. */
export interface SessionRow {
  id: string;
  userId: string;
  email: string;
  merchantId: string;
  role: DashboardRole;
  lastSeenAt: Date;
  expiresAt: Date;
  twoFactorMissing: boolean;
}

export interface MemberRow {
  id: string;
  email: string;
  role: DashboardRole;
  emailVerifiedAt: Date | null;
  totpEnabledAt: Date | null;
  createdAt: Date;
}

const MEMBER_COLUMNS = `u.id, u.email, u.role, u.email_verified_at AS "emailVerifiedAt", u.totp_enabled_at AS "totpEnabledAt", u.created_at AS "createdAt"`;
const INVITATION_COLUMNS = `i.id, i.email, i.role, i.invited_by_email AS "invitedByEmail", i.created_at AS "createdAt", i.expires_at AS "expiresAt",
  i.accepted_at AS "acceptedAt", i.revoked_at AS "revokedAt"`;
export type InvitationRow = Pick<InvitationEntity, 'id' | 'email' | 'role' | 'invitedByEmail' | 'createdAt' | 'expiresAt' | 'acceptedAt' | 'revokedAt'>;

/**
 * The only reader and writer of the accounts module's tables: `users`, `dashboard_sessions`,
 * `account_tokens`, `invitations`, `recovery_codes` and `team_settings`.
 */
@Injectable()
export class AccountsRepository {
  private readonly members: KeysetList<MemberRow>;
  private readonly invitationPages: KeysetList<InvitationRow>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {
    this.members = new KeysetList(pool, 'members', { table: 'users', alias: 'u' }, MEMBER_COLUMNS);
    this.invitationPages = new KeysetList(pool, 'invitations', { table: 'invitations', alias: 'i' }, INVITATION_COLUMNS);
  }

  // Users

  async insertUser(manager: EntityManager, user: NewUser): Promise<void> {
    await manager.insert(UserEntity, user);
  }

  findUserByEmail(email: string): Promise<UserEntity | null> {
    return this.dataSource.manager.findOneBy(UserEntity, { email });
  }

  findUser(id: string, manager: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return manager.findOneBy(UserEntity, { id });
  }

  async updatePassword(manager: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await manager.update(UserEntity, { id: userId }, { passwordHash });
  }

  async markEmailVerified(manager: EntityManager, userId: string): Promise<void> {
    await manager.update(UserEntity, { id: userId, emailVerifiedAt: IsNull() }, { emailVerifiedAt: () => 'now()' });
  }

  // Team

  membersPage(merchantId: string, limit: number, afterId?: string): Promise<MemberRow[] | undefined> {
    return this.members.page(merchantId, limit, afterId);
  }

  async ownerEmails(merchantId: string): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(UserEntity)
      .find({ select: { email: true }, where: { merchantId, role: 'owner' }, order: { email: 'ASC' } });
    return rows.map((row) => row.email);
  }

  /**
   * The merchant's owners, their rows locked until the transaction ends: two owners demoting or
   * removing each other at once cannot both pass the last-owner check.
   */
  async lockOwners(manager: EntityManager, merchantId: string): Promise<string[]> {
    const rows = await manager.find(UserEntity, {
      select: { id: true },
      where: { merchantId, role: 'owner' },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    return rows.map((row) => row.id);
  }

  findMember(manager: EntityManager, merchantId: string, userId: string): Promise<UserEntity | null> {
    return manager.findOneBy(UserEntity, { id: userId, merchantId });
  }

  async updateRole(manager: EntityManager, userId: string, role: DashboardRole): Promise<void> {
    await manager.update(UserEntity, { id: userId }, { role });
  }

  /** The user goes, and with it its sessions, links and recovery codes. */
  async deleteUser(manager: EntityManager, userId: string): Promise<void> {
    await manager.delete(UserEntity, { id: userId });
  }

  async requiresTwoFactor(merchantId: string): Promise<boolean> {
    return (await this.dataSource.manager.findOneBy(TeamSettingsEntity, { merchantId }))?.requireTwoFactor ?? false;
  }

  async setRequireTwoFactor(manager: EntityManager, merchantId: string, requireTwoFactor: boolean): Promise<void> {
    await manager.upsert(TeamSettingsEntity, { merchantId, requireTwoFactor }, ['merchantId']);
  }

  // Invitations

  async insertInvitation(manager: EntityManager, invitation: NewInvitation): Promise<void> {
    await manager.insert(InvitationEntity, invitation);
  }

  /** An e-mail is invited once at a time: a new invitation voids the ones still open. */
  async revokeOpenInvitations(manager: EntityManager, merchantId: string, email: string): Promise<void> {
    await manager.update(InvitationEntity, { merchantId, email, acceptedAt: IsNull(), revokedAt: IsNull() }, { revokedAt: () => 'now()' });
  }

  invitationsPage(merchantId: string, limit: number, afterId?: string): Promise<InvitationRow[] | undefined> {
    return this.invitationPages.page(merchantId, limit, afterId);
  }

  /** Revokes the merchant's invitation while it is open; the row when it was. */
  async revokeInvitation(manager: EntityManager, merchantId: string, id: string): Promise<InvitationEntity | undefined> {
    const invitation = await manager.findOneBy(InvitationEntity, { id, merchantId, acceptedAt: IsNull(), revokedAt: IsNull() });
    if (!invitation) return undefined;
    await manager.update(InvitationEntity, { id }, { revokedAt: () => 'now()' });
    return invitation;
  }

  /** Marks the invitation accepted while it is open and unexpired (row-locked); the row when it was. */
  async acceptInvitation(manager: EntityManager, id: string): Promise<InvitationEntity | undefined> {
    const invitation = await manager.findOne(InvitationEntity, {
      where: { id, acceptedAt: IsNull(), revokedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!invitation || invitation.expiresAt.getTime() <= Date.now()) return undefined;
    await manager.update(InvitationEntity, { id }, { acceptedAt: () => 'now()' });
    return invitation;
  }

  findInvitation(id: string): Promise<InvitationEntity | null> {
    return this.dataSource.manager.findOneBy(InvitationEntity, { id });
  }

  // E-mailed links

  async insertToken(manager: EntityManager, token: NewToken): Promise<void> {
    await manager.insert(AccountTokenEntity, token);
  }

  /** A link still to be mailed: unused and unexpired. */
  tokenToMail(id: string): Promise<AccountTokenEntity | null> {
    return this.dataSource.manager.findOneBy(AccountTokenEntity, { id, usedAt: IsNull() });
  }

  async setTokenHash(id: string, tokenHash: string): Promise<void> {
    await this.dataSource.manager.update(AccountTokenEntity, { id }, { tokenHash });
  }

  /** Uses the link (once: concurrent uses see one success); the row when it was usable. */
  async consumeToken(manager: EntityManager, purpose: TokenPurpose, tokenHash: string): Promise<AccountTokenEntity | undefined> {
    const rows = await manager
      .createQueryBuilder()
      .update(AccountTokenEntity)
      .set({ usedAt: () => 'now()' })
      .where('token_hash = :tokenHash AND purpose = :purpose AND used_at IS NULL AND expires_at > now()', { tokenHash, purpose })
      .returning(['id', 'userId', 'invitationId', 'email'])
      .execute();
    return (rows.raw as { id: string; user_id: string | null; invitation_id: string | null; email: string }[]).map(
      (row) => ({ id: row.id, userId: row.user_id, invitationId: row.invitation_id, email: row.email }) as AccountTokenEntity,
    )[0];
  }

  /** Ends every outstanding password-reset link of the user: after a new password, an older link must not set another. */
  async voidResetLinks(manager: EntityManager, userId: string): Promise<void> {
    await manager.update(AccountTokenEntity, { userId, purpose: 'reset_password', usedAt: IsNull() }, { usedAt: () => 'now()' });
  }

  // Sessions

  async insertSession(session: NewSession, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(DashboardSessionEntity, session);
  }

  /** The session a token hash names, while it has not ended, with its user and the team's second-factor rule. */
  async liveSession(tokenHash: string): Promise<SessionRow | undefined> {
    const { rows } = await this.pool.query<SessionRow>({
      name: 'dashboard_session_lookup',
      text: `SELECT s.id, s.user_id AS "userId", u.email, u.merchant_id AS "merchantId", u.role, s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt",
                    (COALESCE(t.require_two_factor, false) AND u.totp_enabled_at IS NULL) AS "twoFactorMissing"
               FROM dashboard_sessions s JOIN users u ON u.id = s.user_id LEFT JOIN team_settings t ON t.merchant_id = u.merchant_id
              WHERE s.token_hash = $1 AND s.ended_at IS NULL`,
      values: [tokenHash],
    });
    return rows[0];
  }

  async touchSession(id: string): Promise<void> {
    await this.pool.query({ name: 'dashboard_session_touch', text: 'UPDATE dashboard_sessions SET last_seen_at = now() WHERE id = $1', values: [id] });
  }

  /** Ends every session of the user that has not ended, in the caller's transaction. */
  async endAllSessions(manager: EntityManager, userId: string): Promise<void> {
    await manager.update(DashboardSessionEntity, { userId, endedAt: IsNull() }, { endedAt: () => 'now()' });
  }

  /** Ends one session of the user; false when it is not the user's or had ended. */
  async endSession(manager: EntityManager, userId: string, sessionId: string): Promise<boolean> {
    const result = await manager.update(DashboardSessionEntity, { id: sessionId, userId, endedAt: IsNull() }, { endedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }

  /** The user's sessions that have not ended, newest first. */
  sessionsOf(userId: string): Promise<DashboardSessionEntity[]> {
    return this.dataSource.manager.find(DashboardSessionEntity, { where: { userId, endedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  // Second factor

  /** A new secret to confirm, while the second factor is off. */
  async setPendingTotpSecret(userId: string, totpSecret: string): Promise<boolean> {
    const result = await this.dataSource.manager.update(UserEntity, { id: userId, totpEnabledAt: IsNull() }, { totpSecret });
    return (result.affected ?? 0) > 0;
  }

  async enableTotp(manager: EntityManager, userId: string, step: number): Promise<boolean> {
    const result = await manager.update(UserEntity, { id: userId, totpEnabledAt: IsNull() }, { totpEnabledAt: () => 'now()', totpLastStep: String(step) });
    return (result.affected ?? 0) > 0;
  }

  async disableTotp(manager: EntityManager, userId: string): Promise<void> {
    await manager.update(UserEntity, { id: userId }, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
    await manager.delete(RecoveryCodeEntity, { userId });
  }

  /** Accepts a code's time step once: false when this or a later step was already used (a replay). */
  async acceptTotpStep(userId: string, step: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)', [
      userId,
      step,
    ]);
    return rowCount === 1;
  }

  async replaceRecoveryCodes(manager: EntityManager, userId: string, codes: { id: string; codeHash: string }[]): Promise<void> {
    await manager.delete(RecoveryCodeEntity, { userId });
    await manager.insert(
      RecoveryCodeEntity,
      codes.map((code) => ({ ...code, userId })),
    );
  }

  /** Uses one recovery code (once, even when two logins race); false when it is none of the user's unused ones. */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const result = await this.dataSource.manager.update(RecoveryCodeEntity, { userId, codeHash, usedAt: IsNull() }, { usedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }

  async unusedRecoveryCodes(userId: string): Promise<number> {
    return this.dataSource.manager.countBy(RecoveryCodeEntity, { userId, usedAt: IsNull() });
  }
}
