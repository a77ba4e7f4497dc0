import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { isId } from '../../common/ids/ids';
import { afterCursor, KeysetList, rowsToAsk } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { EventRecord } from './events.repository';
import type { WebhookAttemptEntity } from './webhook-attempt.entity';
import type { WebhookDisabledReason, WebhookEndpointEntity } from './webhook-endpoint.entity';

/** An endpoint as read: everything but the merchant relation. */
export type WebhookEndpointRecord = Omit<WebhookEndpointEntity, 'merchant' | 'seq'>;

/** An attempt as the deliveries list shows it, with its event's type. */
export type WebhookAttemptRecord = Omit<WebhookAttemptEntity, 'endpoint' | 'event' | 'seq'> & { eventType: string };

/** A delivery the worker took for one attempt, with its endpoint and event as they were then. */
export interface ClaimedDelivery {
  /** This attempt's number in the round. */
  attempt: number;
  round: number;
  endpoint: WebhookEndpointRecord;
  event: EventRecord;
}

/** The event's columns of a claimed delivery's row. */
interface ClaimedEventColumns {
  eventId: string;
  eventSeq: string;
  eventType: string;
  objectId: string;
  eventData: string;
  eventCreatedAt: Date;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  id: string;
  round: number;
  endpointId: string;
  eventId: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseBody: string;
  error: string | null;
  delivered: boolean;
  /** When to try again; null when delivered or given up. */
  nextRetryAt: Date | null;
  /** Set when this attempt disables the endpoint. */
  disable: WebhookDisabledReason | null;
}

const ENDPOINT_COLUMNS = `w.id, w.merchant_id AS "merchantId", w.url, w.enabled_events AS "enabledEvents", w.description, w.disabled,
  w.disabled_reason AS "disabledReason", w.sealed_secret AS "sealedSecret", w.sealed_previous_secret AS "sealedPreviousSecret",
  w.previous_secret_expires_at AS "previousSecretExpiresAt", w.failing_since AS "failingSince", w.created_at AS "createdAt", w.updated_at AS "updatedAt"`;

const ATTEMPT_COLUMNS = `a.id, a.endpoint_id AS "endpointId", a.event_id AS "eventId", e.type AS "eventType", a.attempt, a.attempted_at AS "attemptedAt",
  a.status_code AS "statusCode", a.duration_ms AS "durationMs", a.response_body AS "responseBody", a.error, a.next_retry_at AS "nextRetryAt"`;

/** Channel the deliveries trigger notifies when work is due, so the dispatcher need not poll to be prompt. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

/**
 * The only reader and writer of `webhook_endpoints`, `webhook_deliveries` and `webhook_attempts`
 * (deliveries are also written with their events, by `EventsRepository.insert`).
 */
@Injectable()
export class WebhooksRepository {
  private readonly pages: KeysetList<WebhookEndpointRecord>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'we', { table: 'webhook_endpoints', alias: 'w' }, ENDPOINT_COLUMNS);
  }

  // Endpoints

  page(merchantId: string, limit: number, afterId?: string): Promise<WebhookEndpointRecord[] | undefined> {
    return this.pages.page(merchantId, limit, afterId);
  }

  /**
   * The merchant's endpoint `id` (undefined for another's, or for what is not an endpoint id):
   * in `manager`'s transaction when given, and locked there until it ends when `lock` is set.
   */
  async findOwned(merchantId: string, id: string, manager?: EntityManager, lock = false): Promise<WebhookEndpointRecord | undefined> {
    if (!isId('we', id)) return undefined;
    const sql = `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.id = $1 AND w.merchant_id = $2${lock ? ' FOR UPDATE' : ''}`;
    const values = [id, merchantId];
    const rows = manager ? await manager.query<WebhookEndpointRecord[]>(sql, values) : (await this.pool.query<WebhookEndpointRecord>(sql, values)).rows;
    return rows[0];
  }

  /** An endpoint by id alone, for the worker, which acts for no merchant. */
  async findById(id: string): Promise<WebhookEndpointRecord | undefined> {
    const { rows } = await this.pool.query<WebhookEndpointRecord>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.id = $1`, [id]);
    return rows[0];
  }

  /** The merchant's endpoints, counted under a lock of its own until the transaction ends, so two creations at once cannot both pass the limit. */
  async countForCreate(manager: EntityManager, merchantId: string): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:' || $1))`, [merchantId]);
    const [row] = await manager.query<{ n: number }[]>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE merchant_id = $1', [merchantId]);
    return row.n;
  }

  async insert(
    manager: EntityManager,
    endpoint: Pick<WebhookEndpointRecord, 'id' | 'merchantId' | 'url' | 'enabledEvents' | 'description' | 'sealedSecret'>,
  ): Promise<void> {
    await manager.query(`INSERT INTO webhook_endpoints (id, merchant_id, url, enabled_events, description, sealed_secret) VALUES ($1, $2, $3, $4, $5, $6)`, [
      endpoint.id,
      endpoint.merchantId,
      endpoint.url,
      endpoint.enabledEvents,
      endpoint.description,
      endpoint.sealedSecret,
    ]);
  }

  async update(
    manager: EntityManager,
    id: string,
    change: Partial<Pick<WebhookEndpointRecord, 'url' | 'enabledEvents' | 'description' | 'disabled' | 'disabledReason' | 'failingSince'>>,
  ): Promise<void> {
    await manager.query(
      `UPDATE webhook_endpoints SET url = COALESCE($2, url), enabled_events = COALESCE($3, enabled_events),
              description = CASE WHEN $4::boolean THEN $5 ELSE description END,
              disabled = COALESCE($6, disabled), disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason ELSE $7 END,
              failing_since = CASE WHEN $6 IS NULL THEN failing_since ELSE NULL END, updated_at = now()
        WHERE id = $1`,
      [
        id,
        change.url ?? null,
        change.enabledEvents ?? null,
        'description' in change,
        change.description ?? null,
        change.disabled ?? null,
        change.disabled ? (change.disabledReason ?? 'user') : null,
      ],
    );
  }

  /** A new secret; the one it replaces keeps signing until `previousExpiresAt`. */
  async rotate(manager: EntityManager, id: string, sealedSecret: string, previousExpiresAt: Date): Promise<void> {
    await manager.query(
      `UPDATE webhook_endpoints SET sealed_previous_secret = sealed_secret, previous_secret_expires_at = $3, sealed_secret = $2, updated_at = now() WHERE id = $1`,
      [id, sealedSecret, previousExpiresAt],
    );
  }

  async remove(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
  }

  // Deliveries

  /**
   * Makes the deliveries of `eventIds` to the endpoint pending from now, in a new round (0
   * attempts so far): a resend, or a recovery. An event it was never owed gets one. An attempt
   * under way keeps going, but what it comes to no longer decides the delivery.
   */
  async resend(manager: EntityManager, endpointId: string, eventIds: string[]): Promise<void> {
    await manager.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id) SELECT $1, unnest($2::text[])
       ON CONFLICT (endpoint_id, event_id) DO UPDATE
         SET state = 'pending', attempts = 0, round = webhook_deliveries.round + 1, next_attempt_at = now(), leased_until = NULL, updated_at = now()`,
      [endpointId, eventIds],
    );
  }

  /**
   * Takes up to `limit` due deliveries of enabled endpoints for one attempt each, leasing them for
   * `leaseMs`, with their endpoints and events (rows gone with their endpoint or event are owed
   * nothing and not taken). An endpoint's attempts under way are the front of its due rows: they
   * are taken oldest first, and an attempt's record ends its lease (the row delivered, or due
   * later). So taking only from each endpoint's first `perEndpoint` due rows holds it to that many
   * at once, other workers' included, and a claim reads a few rows per endpoint from the front of
   * its own index: it costs what the endpoints number, not what they are owed. A row two workers
   * choose at once is taken by one: the other's UPDATE finds it leased and skips it.
   */
  async claim(limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    type Row = { attempt: number; round: number } & WebhookEndpointRecord & ClaimedEventColumns;
    const { rows } = await this.pool.query<Row>({
      name: 'webhook_claim',
      text: `WITH chosen AS (
               SELECT front.endpoint_id, front.event_id
                 FROM webhook_endpoints ep
                 CROSS JOIN LATERAL (
                   SELECT q.endpoint_id, q.event_id, q.next_attempt_at, q.leased_until FROM webhook_deliveries q
                    WHERE q.endpoint_id = ep.id AND q.state = 'pending' AND q.next_attempt_at <= now()
                    ORDER BY q.next_attempt_at, q.event_id LIMIT $2
                 ) front
                WHERE NOT ep.disabled AND (front.leased_until IS NULL OR front.leased_until <= now())
                ORDER BY front.next_attempt_at LIMIT $1
             )
             UPDATE webhook_deliveries d SET leased_until = now() + make_interval(secs => $3::double precision / 1000), attempts = d.attempts + 1
               FROM chosen, webhook_endpoints w, events e
              WHERE d.endpoint_id = chosen.endpoint_id AND d.event_id = chosen.event_id AND w.id = d.endpoint_id AND e.id = d.event_id
                AND d.state = 'pending' AND (d.leased_until IS NULL OR d.leased_until <= now())
             RETURNING d.attempts AS attempt, d.round, ${ENDPOINT_COLUMNS}, e.id AS "eventId", e.seq AS "eventSeq", e.type AS "eventType",
                       e.object_id AS "objectId", e.data::text AS "eventData", e.created_at AS "eventCreatedAt"`,
      values: [limit, perEndpoint, leaseMs],
    });
    return rows.map(({ attempt, round, eventId, eventSeq, eventType, objectId, eventData, eventCreatedAt, ...endpoint }) => ({
      attempt,
      round,
      endpoint,
      event: { id: eventId, seq: eventSeq, type: eventType, objectId, data: eventData, createdAt: eventCreatedAt },
    }));
  }

  /**
   * Records an attempt and its consequence, in one statement: the attempt; the delivery delivered,
   * due again, or given up (only for the round the attempt belongs to); the endpoint's run of
   * failures ended, started or, past its limit, the endpoint disabled. Answers whether this attempt
   * disabled the endpoint (it was enabled before).
   */
  async recordAttempt(manager: EntityManager, outcome: AttemptOutcome): Promise<boolean> {
    // The endpoint is written only when its run of failures starts or ends, or it is disabled, so
    // the attempts that succeed (nearly all) neither lock nor rewrite its row. The lock disabling
    // takes to learn what the row was is NO KEY UPDATE: FOR UPDATE would conflict with the key-share
    // lock another attempt's INSERT holds on it, and two recordings would deadlock.
    const rows = await manager.query<{ disabled: boolean }[]>(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (id, endpoint_id, event_id, attempt, attempted_at, status_code, duration_ms, response_body, error, next_retry_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ), delivery AS (
         UPDATE webhook_deliveries SET state = $11, next_attempt_at = COALESCE($10, next_attempt_at), leased_until = NULL, updated_at = now()
          WHERE endpoint_id = $2 AND event_id = $3 AND round = $12
       ), before AS (
         SELECT disabled FROM webhook_endpoints WHERE id = $2 AND $13::text IS NOT NULL FOR NO KEY UPDATE
       ), updated AS (
         UPDATE webhook_endpoints w SET
                failing_since = CASE WHEN $14 THEN NULL ELSE COALESCE(w.failing_since, $5) END,
                disabled = w.disabled OR $13::text IS NOT NULL,
                disabled_reason = CASE WHEN w.disabled OR $13::text IS NULL THEN w.disabled_reason ELSE $13 END,
                updated_at = CASE WHEN $13::text IS NOT NULL AND NOT w.disabled THEN now() ELSE w.updated_at END
          WHERE w.id = $2 AND ($13::text IS NOT NULL OR (CASE WHEN $14 THEN w.failing_since IS NOT NULL ELSE w.failing_since IS NULL END))
          RETURNING w.disabled
       )
       SELECT (NOT before.disabled AND updated.disabled) AS disabled FROM before, updated`,
      [
        outcome.id,
        outcome.endpointId,
        outcome.eventId,
        outcome.attempt,
        outcome.attemptedAt,
        outcome.statusCode,
        outcome.durationMs,
        outcome.responseBody,
        outcome.error,
        outcome.nextRetryAt,
        outcome.delivered ? 'delivered' : outcome.nextRetryAt ? 'pending' : 'failed',
        outcome.round,
        outcome.disable,
        outcome.delivered,
      ],
    );
    return rows[0]?.disabled ?? false;
  }

  // Attempts

  /** A page of the endpoint's attempts, newest first, after the endpoint's attempt `afterId`. */
  async attempts(endpointId: string, limit: number, afterId?: string): Promise<WebhookAttemptRecord[] | undefined> {
    const { rows } = await this.pool.query<WebhookAttemptRecord>({
      name: 'webhook_attempts_list',
      text: `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a JOIN events e ON e.id = a.event_id
              WHERE a.endpoint_id = $1 AND ($2::text IS NULL OR a.seq <= (SELECT seq FROM webhook_attempts WHERE id = $2 AND endpoint_id = $1))
              ORDER BY a.seq DESC LIMIT $3`,
      values: [endpointId, afterId ?? null, rowsToAsk(limit, afterId)],
    });
    return afterCursor(rows, afterId);
  }
}
