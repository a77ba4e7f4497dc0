import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { DashboardSessionEntity } from './dashboard-session.entity';
import { UserEntity } from './user.entity';

export type NewUser = Pick<UserEntity, 'id' | 'merchantId' | 'email' | 'passwordHash' | 'role' | 'emailVerifiedAt'>;
export type NewSession = Pick<DashboardSessionEntity, 'id' | 'userId' | 'tokenHash' | 'lastSeenAt' | 'expiresAt' | 'ip' | 'userAgent'>;

/** A live session with what a request needs of its user. */
export interface SessionRow {
  id: string;
  userId: string;
  merchantId: string;
  role: UserEntity['role'];
  lastSeenAt: Date;
  expiresAt: Date;
}

/** The only reader and writer of `users` and `dashboard_sessions`. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertUser(manager: EntityManager, user: NewUser): Promise<void> {
    await manager.insert(UserEntity, user);
  }

  findUserByEmail(email: string): Promise<UserEntity | null> {
    return this.dataSource.manager.findOneBy(UserEntity, { email });
  }

  findUser(id: string): Promise<UserEntity | null> {
    return this.dataSource.manager.findOneBy(UserEntity, { id });
  }

  async insertSession(session: NewSession, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(DashboardSessionEntity, session);
  }

  /** The session a token hash names, while it has not ended, with its user. */
  async liveSession(tokenHash: string): Promise<SessionRow | undefined> {
    const rows = await this.dataSource.query<SessionRow[]>(
      `SELECT s.id, s.user_id AS "userId", u.merchant_id AS "merchantId", u.role, s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt"
         FROM dashboard_sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.ended_at IS NULL`,
      [tokenHash],
    );
    return rows[0];
  }

  async touchSession(id: string): Promise<void> {
    await this.dataSource.query('UPDATE dashboard_sessions SET last_seen_at = now() WHERE id = $1', [id]);
  }

  async updatePassword(manager: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await manager.update(UserEntity, { id: userId }, { passwordHash });
  }

  /** Ends every session of the user that has not ended, in the caller's transaction. */
  async endAllSessions(manager: EntityManager, userId: string): Promise<void> {
    await manager.update(DashboardSessionEntity, { userId, endedAt: IsNull() }, { endedAt: () => 'now()' });
  }

  /** Ends one session of the user; false when it is not the user's or had ended. */
  async endSession(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.dataSource.manager.update(DashboardSessionEntity, { id: sessionId, userId, endedAt: IsNull() }, { endedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }

  /** The user's sessions that have not ended, newest first. */
  sessionsOf(userId: string): Promise<DashboardSessionEntity[]> {
    return this.dataSource.manager.find(DashboardSessionEntity, { where: { userId, endedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }
}
