import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { afterCursor, rowsToAsk } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';

/** An event as read back: `data` is the stored JSON text, its keys in the order they were written. */
export interface EventRecord {
  id: string;
  seq: string;
  type: string;
  objectId: string;
  data: string;
  createdAt: Date;
}

export interface NewEvent {
  id: string;
  merchantId: string;
  type: string;
  objectId: string;
  /** The object's JSON as its GET answers it, key order included. */
  data: string;
}

export interface EventFilter {
  types?: string[];
  createdAfter?: Date;
}

const COLUMNS = `e.id, e.seq, e.type, e.object_id AS "objectId", e.data::text AS data, e.created_at AS "createdAt"`;

/** The only reader and writer of `events`. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** In the transaction of the change the event describes. */
  async insert(manager: EntityManager, event: NewEvent): Promise<void> {
    await manager.query(`INSERT INTO events (id, merchant_id, type, object_id, data) VALUES ($1, $2, $3, $4, $5::json)`, [
      event.id,
      event.merchantId,
      event.type,
      event.objectId,
      event.data,
    ]);
  }

  async findOwned(merchantId: string, id: string): Promise<EventRecord | undefined> {
    const { rows } = await this.pool.query<EventRecord>({
      name: 'evt_find_owned',
      text: `SELECT ${COLUMNS} FROM events e WHERE e.id = $1 AND e.merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /**
   * A page of the merchant's events, newest first, of the `types` asked for (all when none) and
   * created at or after `createdAfter`; after the merchant's event `afterId`, which is then undefined when
   * it is none of the merchant's. The cursor's row comes first, as in every list (`KeysetList`).
   */
  async list(merchantId: string, filter: EventFilter, limit: number, afterId?: string): Promise<EventRecord[] | undefined> {
    const { rows } = await this.pool.query<EventRecord>({
      name: 'evt_list',
      text: `SELECT ${COLUMNS} FROM events e
              WHERE e.merchant_id = $1
                AND ($4::text IS NULL OR e.seq <= (SELECT seq FROM events WHERE id = $4 AND merchant_id = $1))
                AND (e.id IS NOT DISTINCT FROM $4 OR (
                      ($2::text[] IS NULL OR e.type = ANY($2)) AND ($3::timestamptz IS NULL OR e.created_at >= $3)))
              ORDER BY e.seq DESC LIMIT $5`,
      values: [merchantId, filter.types ?? null, filter.createdAfter ?? null, afterId ?? null, rowsToAsk(limit, afterId)],
    });
    return afterCursor(rows, afterId);
  }

  /** Deletes up to `batch` events older than `days` days; answers how many went. */
  async deleteOlderThan(days: number, batch: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2)`,
      [days, batch],
    );
    return rowCount ?? 0;
  }
}
