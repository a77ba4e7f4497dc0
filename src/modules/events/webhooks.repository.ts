import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { afterCursor, KeysetList, rowsToAsk } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { EventRecord } from './events.repository';
import type { WebhookAttemptEntity } from './webhook-attempt.entity';
import type { WebhookDisabledReason, WebhookEndpointEntity } from './webhook-endpoint.entity';

/** An endpoint as read: everything but the merchant relation. */
export type WebhookEndpointRecord = Omit<WebhookEndpointEntity, 'merchant' | 'seq'>;

/** An attempt as the deliveries list shows it, with its event's type. */
export type WebhookAttemptRecord = Omit<WebhookAttemptEntity, 'endpoint' | 'event' | 'seq'> & { eventType: string };

/** A delivery the worker took for one attempt: the event's wire form is built from its row. */
export interface ClaimedDelivery {
  endpointId: string;
  eventId: string;
  /** This attempt's number in the round. */
  attempt: number;
  round: number;
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

  async findOwned(merchantId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    const { rows } = await this.pool.query<WebhookEndpointRecord>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.id = $1 AND w.merchant_id = $2`,
      [id, merchantId],
    );
    return rows[0];
  }

  /** An endpoint by id alone, for the worker, which acts for no merchant. */
  async findById(id: string): Promise<WebhookEndpointRecord | undefined> {
    const { rows } = await this.pool.query<WebhookEndpointRecord>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.id = $1`, [id]);
    return rows[0];
  }

  async lockOwned(manager: EntityManager, merchantId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    const rows = await manager.query<WebhookEndpointRecord[]>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.id = $1 AND w.merchant_id = $2 FOR UPDATE`,
      [id, merchantId],
    );
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
   * `leaseMs`; an endpoint gets no more than `perEndpoint` leased at once, counting those other
   * workers hold, so one slow endpoint holds at most that many requests. A row two workers choose
   * at once is taken by one: the other's UPDATE finds it leased and skips it.
   */
  async claim(limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const { rows } = await this.pool.query<ClaimedDelivery>({
      name: 'webhook_claim',
      text: `WITH busy AS (
               SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending' AND leased_until > now() GROUP BY endpoint_id
             ), due AS (
               SELECT d.endpoint_id, d.event_id, d.next_attempt_at,
                      row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.event_id) AS rank
                 FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND NOT w.disabled
                WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND (d.leased_until IS NULL OR d.leased_until <= now())
             ), chosen AS (
               SELECT due.endpoint_id, due.event_id FROM due LEFT JOIN busy USING (endpoint_id)
                WHERE due.rank + COALESCE(busy.n, 0) <= $2 ORDER BY due.next_attempt_at LIMIT $1
             )
             UPDATE webhook_deliveries d SET leased_until = now() + make_interval(secs => $3::double precision / 1000), attempts = d.attempts + 1
               FROM chosen
              WHERE d.endpoint_id = chosen.endpoint_id AND d.event_id = chosen.event_id
                AND d.state = 'pending' AND (d.leased_until IS NULL OR d.leased_until <= now())
             RETURNING d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.attempts AS attempt, d.round`,
      values: [limit, perEndpoint, leaseMs],
    });
    return rows;
  }

  /** The endpoint and the event's row, for one attempt; undefined when either is gone. */
  async forAttempt(delivery: ClaimedDelivery): Promise<{ endpoint: WebhookEndpointRecord; event: EventRecord } | undefined> {
    const { rows } = await this.pool.query<
      WebhookEndpointRecord & { eventSeq: string; eventType: string; objectId: string; eventData: string; eventCreatedAt: Date }
    >({
      name: 'webhook_for_attempt',
      text: `SELECT ${ENDPOINT_COLUMNS}, e.seq AS "eventSeq", e.type AS "eventType", e.object_id AS "objectId", e.data::text AS "eventData",
                    e.created_at AS "eventCreatedAt"
               FROM webhook_endpoints w JOIN events e ON e.id = $2 WHERE w.id = $1`,
      values: [delivery.endpointId, delivery.eventId],
    });
    const row = rows[0];
    if (!row) return undefined;
    const { eventSeq, eventType, objectId, eventData, eventCreatedAt, ...endpoint } = row;
    return { endpoint, event: { id: delivery.eventId, seq: eventSeq, type: eventType, objectId, data: eventData, createdAt: eventCreatedAt } };
  }

  /**
   * Records an attempt and its consequence in one transaction: the delivery delivered, due again,
   * or given up; the endpoint's run of failures ended, started or, past its limit, the endpoint
   * disabled. Answers whether this attempt disabled the endpoint (it was enabled before).
   */
  async recordAttempt(manager: EntityManager, outcome: AttemptOutcome): Promise<boolean> {
    await manager.query(
      `INSERT INTO webhook_attempts (id, endpoint_id, event_id, attempt, attempted_at, status_code, duration_ms, response_body, error, next_retry_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
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
      ],
    );
    await manager.query(
      `UPDATE webhook_deliveries SET state = $3, next_attempt_at = COALESCE($4, next_attempt_at), leased_until = NULL, updated_at = now()
        WHERE endpoint_id = $1 AND event_id = $2 AND round = $5`,
      [outcome.endpointId, outcome.eventId, outcome.delivered ? 'delivered' : outcome.nextRetryAt ? 'pending' : 'failed', outcome.nextRetryAt, outcome.round],
    );
    // A SELECT over the UPDATE: TypeORM answers an UPDATE's own RETURNING as [rows, count]. The
    // lock is the UPDATE's own (NO KEY UPDATE): FOR UPDATE would conflict with the key-share lock
    // another endpoint attempt's INSERT above holds, and two recordings at once would deadlock.
    const rows = await manager.query<{ disabled: boolean }[]>(
      `WITH before AS (SELECT disabled FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE), updated AS (
         UPDATE webhook_endpoints w SET
                failing_since = CASE WHEN $2 THEN NULL ELSE COALESCE(w.failing_since, $3) END,
                disabled = w.disabled OR $4::text IS NOT NULL,
                disabled_reason = CASE WHEN w.disabled OR $4::text IS NULL THEN w.disabled_reason ELSE $4 END,
                updated_at = CASE WHEN $4::text IS NOT NULL AND NOT w.disabled THEN now() ELSE w.updated_at END
          WHERE w.id = $1
          RETURNING w.disabled
       )
       SELECT (NOT before.disabled AND updated.disabled) AS disabled FROM before, updated`,
      [outcome.endpointId, outcome.delivered, outcome.attemptedAt, outcome.disable],
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
