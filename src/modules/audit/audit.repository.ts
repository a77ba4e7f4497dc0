import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import { afterCursor, rowsToAsk } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { AuditEntryEntity } from './audit-entry.entity';

export type NewAuditEntry = Pick<AuditEntryEntity, 'id' | 'merchantId' | 'userId' | 'userEmail' | 'action' | 'objectId' | 'ip' | 'details'>;
export type AuditRow = NewAuditEntry & { createdAt: Date };

/** What a page of the audit log may be narrowed to. */
export interface AuditFilter {
  userId?: string;
  action?: string;
}

const COLUMNS = `a.id, a.merchant_id AS "merchantId", a.user_id AS "userId", a.user_email AS "userEmail", a.action, a.object_id AS "objectId", a.ip,
  a.details, a.created_at AS "createdAt"`;

/** The only reader and writer of `audit_log`. */
@Injectable()
export class AuditRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** In the transaction of the change it records. */
  async insert(manager: EntityManager, entry: NewAuditEntry): Promise<void> {
    await manager.insert(AuditEntryEntity, entry);
  }

  /** Outside any transaction: what happened when nothing changed (a failed login). */
  async insertAlone(entry: NewAuditEntry): Promise<void> {
    await this.pool.query(
      'INSERT INTO audit_log (id, merchant_id, user_id, user_email, action, object_id, ip, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [entry.id, entry.merchantId, entry.userId, entry.userEmail, entry.action, entry.objectId, entry.ip, entry.details],
    );
  }

  async find(merchantId: string, id: string): Promise<AuditRow | undefined> {
    const { rows } = await this.pool.query<AuditRow>(`SELECT ${COLUMNS} FROM audit_log a WHERE a.id = $1 AND a.merchant_id = $2`, [id, merchantId]);
    return rows[0];
  }

  /**
   * The newest `limit` entries matching the filter, or those after the merchant's entry `afterId`;
   * undefined when that is no entry of the merchant's. Keyset on `seq`, each filter with its index.
   */
  async page(merchantId: string, filter: AuditFilter, limit: number, afterId?: string): Promise<AuditRow[] | undefined> {
    const values: unknown[] = [merchantId, filter.userId ?? null, filter.action ?? null];
    let after = '';
    if (afterId !== undefined) {
      values.push(afterId);
      after = `AND a.seq <= (SELECT seq FROM audit_log WHERE id = $${values.length} AND merchant_id = $1)`;
    }
    values.push(rowsToAsk(limit, afterId));
    const { rows } = await this.pool.query<AuditRow>(
      `SELECT ${COLUMNS} FROM audit_log a
        WHERE a.merchant_id = $1 AND ($2::text IS NULL OR a.user_id = $2) AND ($3::text IS NULL OR a.action = $3) ${after}
        ORDER BY a.seq DESC LIMIT $${values.length}`,
      values,
    );
    return afterCursor(rows, afterId);
  }
}
