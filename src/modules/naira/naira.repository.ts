import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NairaAccountEntity } from './naira-account.entity';

export type OpenedAccount = Pick<NairaAccountEntity, 'providerReference' | 'accountNumber' | 'accountName' | 'bankName' | 'bankCode'>;

/** The only reader and writer of `naira_accounts`. */
@Injectable()
export class NairaRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Starts a provisioning round for the business and returns its number (1, 2, …). */
  async openRound(manager: EntityManager, businessId: string): Promise<number> {
    const [row] = await manager.query<{ attempts: number }[]>(
      `INSERT INTO naira_accounts (business_id, attempts) VALUES ($1, 1)
       ON CONFLICT (business_id) DO UPDATE SET attempts = naira_accounts.attempts + 1, failed_at = NULL, updated_at = now()
       RETURNING attempts`,
      [businessId],
    );
    return row.attempts;
  }

  /** Businesses whose last round failed more than `waitMs` ago. */
  async failedBefore(waitMs: number, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ business_id: string }[]>(
      `SELECT business_id FROM naira_accounts WHERE failed_at < now() - make_interval(secs => $1 / 1000.0) ORDER BY failed_at LIMIT $2`,
      [waitMs, limit],
    );
    return rows.map((row) => row.business_id);
  }

  /** Rounds neither finished nor given up: they must have a live job. */
  async openRounds(limit: number): Promise<{ businessId: string; round: number }[]> {
    const rows = await this.dataSource.query<{ business_id: string; attempts: number }[]>(
      `SELECT business_id, attempts FROM naira_accounts WHERE provider_reference IS NULL AND failed_at IS NULL ORDER BY updated_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ businessId: row.business_id, round: row.attempts }));
  }

  /** Records the account the rail opened, in the caller's transaction. */
  async recordOpened(manager: EntityManager, businessId: string, account: OpenedAccount): Promise<void> {
    await manager.update(NairaAccountEntity, { businessId }, { ...account, lastError: null });
  }

  /** Records a failed round, in the caller's transaction. */
  async recordFailed(manager: EntityManager, businessId: string, reason: string): Promise<void> {
    await manager.update(NairaAccountEntity, { businessId }, { lastError: reason.slice(0, 500), failedAt: new Date() });
  }
}
