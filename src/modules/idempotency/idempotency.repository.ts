import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { StatementPart } from '../../common/persistence/statement-part';

export interface KeyRow {
  fingerprint: string;
  status: 'in_progress' | 'completed';
  /** Milliseconds of lock left (≤ 0: expired), null once completed. */
  lock_left_ms: number | null;
  recovery_point: string;
  resource_id: string | null;
  response_status: number | null;
  response_body: string | null;
  /** Past its retention: to be forgotten and claimed afresh. */
  expired: boolean;
  expires_at: Date;
  /** True when this statement claimed the key. */
  claimed: boolean;
}

export interface ClaimParams {
  merchantId: string;
  key: string;
  fingerprint: string;
  token: string;
  lockMs: number;
  retentionMs: number;
  /** The resource a new claim fixes before the operation runs, if the route creates one. */
  resourceId: string | null;
}

const ROW = `fingerprint, status, recovery_point, resource_id, response_status, response_body,
             (extract(epoch FROM locked_until - clock_timestamp()) * 1000)::int AS lock_left_ms,
             expires_at < clock_timestamp() AS expired, expires_at`;

const COMPLETE = `UPDATE idempotency_keys SET status = 'completed', response_status = $4::int, response_body = $5, recovery_point = 'finished',
                         lock_token = NULL, locked_until = NULL
                   WHERE merchant_id = $1 AND key = $2 AND lock_token = $3::uuid AND status = 'in_progress'`;

/**
 * SQL of `idempotency_keys`. The key is claimed by the primary key's uniqueness in one statement
 * (never check-then-insert), and every later write names the holder's lock token, so a request
 * that lost its lock to a retry writes nothing.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * Claims the key, or returns the record that holds it, in one statement that never locks an
   * existing record (`DO NOTHING`), so replays of one key do not queue behind each other.
   * Undefined when a concurrent claim committed after this statement's snapshot: ask again.
   */
  async claimOrRead(p: ClaimParams): Promise<KeyRow | undefined> {
    const { rows } = await this.pool.query<KeyRow>({
      name: 'idempotency_claim',
      text: `WITH claimed AS (
               INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, lock_token, locked_until, resource_id, expires_at)
               VALUES ($1, $2, $3, 'in_progress', $4, clock_timestamp() + make_interval(secs => $5 / 1000.0), $7,
                       clock_timestamp() + make_interval(secs => $6 / 1000.0))
               ON CONFLICT (merchant_id, key) DO NOTHING
               RETURNING ${ROW}, true AS claimed
             )
             SELECT * FROM claimed
             UNION ALL
             SELECT ${ROW}, false AS claimed FROM idempotency_keys
              WHERE merchant_id = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM claimed)`,
      values: [p.merchantId, p.key, p.fingerprint, p.token, p.lockMs, p.retentionMs, p.resourceId],
    });
    return rows[0];
  }

  /** Deletes the record if it is past its retention (the reaper may not have run yet). */
  async forgetExpired(merchantId: string, key: string): Promise<void> {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE merchant_id = $1 AND key = $2 AND expires_at < clock_timestamp()`, [merchantId, key]);
  }

  /** Takes over an unfinished record whose holder's lock ran out (its process died or stalled). */
  async takeOver(p: ClaimParams): Promise<KeyRow | undefined> {
    const { rows } = await this.pool.query<KeyRow>({
      name: 'idempotency_take_over',
      text: `UPDATE idempotency_keys SET lock_token = $4, locked_until = clock_timestamp() + make_interval(secs => $5 / 1000.0)
              WHERE merchant_id = $1 AND key = $2 AND fingerprint = $3 AND status = 'in_progress' AND locked_until < clock_timestamp()
             RETURNING ${ROW}, true AS claimed`,
      values: [p.merchantId, p.key, p.fingerprint, p.token, p.lockMs],
    });
    return rows[0];
  }

  /** Records how far the operation got and renews the lock; false when the lock was lost. In `manager`'s transaction when given. */
  async checkpoint(manager: EntityManager | undefined, merchantId: string, key: string, token: string, point: string, lockMs: number): Promise<boolean> {
    const affected = await this.update(
      manager,
      `UPDATE idempotency_keys SET recovery_point = $4, locked_until = clock_timestamp() + make_interval(secs => $5 / 1000.0)
        WHERE merchant_id = $1 AND key = $2 AND lock_token = $3 AND status = 'in_progress'`,
      [merchantId, key, token, point, lockMs],
    );
    return affected === 1;
  }

  /** Stores the answer and ends the lock; false when the lock was lost. In `manager`'s transaction when given. */
  async complete(manager: EntityManager | undefined, merchantId: string, key: string, token: string, status: number, body: string): Promise<boolean> {
    const affected = await this.update(manager, COMPLETE, [merchantId, key, token, status, body]);
    return affected === 1;
  }

  /**
   * `complete` as a part of another statement (see `StatementPart`): the CTE `answered` has a row
   * when the answer was stored, none when the lock was lost. Without a key, `answered` is one row.
   */
  answeredPart(stored?: { merchantId: string; key: string; token: string; status: number; body: string }): StatementPart {
    if (!stored) return { text: 'answered AS (SELECT 1)', values: [] };
    return { text: `answered AS (${COMPLETE} RETURNING 1)`, values: [stored.merchantId, stored.key, stored.token, stored.status, stored.body] };
  }

  /**
   * Gives the key back after an answer that stored nothing. A record that never got past its start
   * is deleted (a corrected or repeated request runs afresh), unless `mayHaveActed` and it fixed
   * a resource: the operation may then have begun an external effect under that resource's id.
   * A record kept has its lock ended, so a retry resumes from it at once.
   */
  async release(merchantId: string, key: string, token: string, mayHaveActed: boolean): Promise<void> {
    await this.pool.query({
      name: 'idempotency_release',
      text: `WITH gone AS (
               DELETE FROM idempotency_keys
                WHERE merchant_id = $1 AND key = $2 AND lock_token = $3 AND status = 'in_progress'
                  AND recovery_point = 'started' AND (NOT $4 OR resource_id IS NULL)
               RETURNING 1
             )
             UPDATE idempotency_keys SET locked_until = clock_timestamp()
              WHERE merchant_id = $1 AND key = $2 AND lock_token = $3 AND status = 'in_progress' AND NOT EXISTS (SELECT 1 FROM gone)`,
      values: [merchantId, key, token, mayHaveActed],
    });
  }

  /** Deletes records past their retention, a batch at a time; returns how many. */
  async reap(limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < clock_timestamp() LIMIT $1)`,
      [limit],
    );
    return rowCount ?? 0;
  }

  /** Rows an UPDATE changed, in `manager`'s transaction or on the pool. */
  private async update(manager: EntityManager | undefined, text: string, values: unknown[]): Promise<number> {
    if (!manager) return (await this.pool.query(text, values)).rowCount ?? 0;
    // TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = await manager.query<[unknown[], number]>(text, values);
    return affected;
  }
}
