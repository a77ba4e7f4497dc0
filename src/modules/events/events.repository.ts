import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { afterCursor, rowsToAsk } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { StatementPart } from '../../common/persistence/statement-part';

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
  /** Only what this endpoint takes and has not acknowledged. */
  undeliveredTo?: { endpointId: string; enabledEvents: string[] };
}

/**
 * An event the endpoint (`$endpoint`, taking the types `$types`) is owed and has not acknowledged:
 * of a type it takes (test events are no part of catching up) and without a delivered delivery to it.
 */
function undelivered(endpoint: string, types: string): string {
  return `(e.type <> 'webhook_endpoint.test' AND (e.type = ANY(${types}::text[]) OR '*' = ANY(${types}::text[]))
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = ${endpoint} AND d.event_id = e.id AND d.state = 'delivered'))`;
}

const COLUMNS = `e.id, e.seq, e.type, e.object_id AS "objectId", e.data::text AS data, e.created_at AS "createdAt"`;

/** The only reader and writer of `events`. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * In the transaction of the change the events describe, in their order, with in the same
   * statement a pending delivery to each of the merchant's enabled endpoints that takes the type
   * (to the endpoint `onlyTo` alone, whatever it takes, when given: a test event): an event
   * commits with exactly the deliveries it owes, or not at all.
   */
  async insert(manager: EntityManager, events: NewEvent[], onlyTo: string | null = null): Promise<void> {
    const part = this.insertPart(events, onlyTo);
    await manager.query(`WITH ${part.text} SELECT 1`, part.values);
  }

  /**
   * `insert` as a part of the statement of the change the events describe (see `StatementPart`),
   * written only when the CTE `after` of that statement has a row (the change happened).
   */
  insertPart(events: NewEvent[], onlyTo: string | null = null, after?: string): StatementPart {
    return {
      text: `event_new AS (
               SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS n(id, merchant_id, type, object_id, data, position)
               ${after ? `WHERE EXISTS (SELECT 1 FROM ${after})` : ''}
             ), event_inserted AS (
               INSERT INTO events (id, merchant_id, type, object_id, data) SELECT id, merchant_id, type, object_id, data::json FROM event_new ORDER BY position
               RETURNING id, merchant_id, type
             ), event_deliveries AS (
               INSERT INTO webhook_deliveries (endpoint_id, event_id)
               SELECT w.id, e.id FROM event_inserted e
                 JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND CASE WHEN $6::text IS NULL
                   THEN NOT w.disabled AND (e.type = ANY(w.enabled_events) OR '*' = ANY(w.enabled_events)) ELSE w.id = $6 END
             )`,
      values: [
        events.map((e) => e.id),
        events.map((e) => e.merchantId),
        events.map((e) => e.type),
        events.map((e) => e.objectId),
        events.map((e) => e.data),
        onlyTo,
      ],
    };
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
                      ($2::text[] IS NULL OR e.type = ANY($2)) AND ($3::timestamptz IS NULL OR e.created_at >= $3)
                      AND ($6::text IS NULL OR ${undelivered('$6', '$7')})))
              ORDER BY e.seq DESC LIMIT $5`,
      values: [
        merchantId,
        filter.types ?? null,
        filter.createdAfter ?? null,
        afterId ?? null,
        rowsToAsk(limit, afterId),
        filter.undeliveredTo?.endpointId ?? null,
        filter.undeliveredTo?.enabledEvents ?? null,
      ],
    });
    return afterCursor(rows, afterId);
  }

  /** The ids of the merchant's events since `since` the endpoint is owed and has not acknowledged, oldest first. */
  async undeliveredSince(merchantId: string, endpoint: { endpointId: string; enabledEvents: string[] }, since: Date): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT e.id FROM events e WHERE e.merchant_id = $1 AND e.created_at >= $2 AND ${undelivered('$3', '$4')} ORDER BY e.seq`,
      [merchantId, since, endpoint.endpointId, endpoint.enabledEvents],
    );
    return rows.map((row) => row.id);
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
