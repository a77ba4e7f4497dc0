import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box';
import { newId } from '../../common/ids/ids';
import { PgListener } from '../../common/persistence/pg-listener';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobQueues, Outbox } from '../../jobs';
import { OpsMetrics } from '../metrics';
import { mapEvent } from './event.mapper';
import { EVENTS_JOBS } from './events.jobs';
import { webhookSecrets } from './webhook-endpoints.service';
import type { WebhookDisabledReason } from './webhook-endpoint.entity';
import { WebhookAnswer, WebhookSender } from './webhook-sender';
import { WebhookUrlPolicy } from './webhook-url-policy';
import { AttemptOutcome, ClaimedDelivery, WEBHOOK_DELIVERIES_CHANNEL, WebhooksRepository } from './webhooks.repository';

/** Fallback when a notification is missed, and how soon a retry that came due is seen. */
const POLL_MS = 500;
/** A lease outlives the attempt's timeout by this much: the time to record its outcome. */
const LEASE_MARGIN_MS = 5_000;
/** How long a shutdown waits for attempts under way before cutting them short. */
const SHUTDOWN_GRACE_MS = 2_000;
/** How long a wake waits for others to share its claim. */
const CLAIM_COALESCE_MS = 10;
const BEHIND_CLAIM_LIMIT = 8;
const BEHIND_CLAIM_GAP_MS = 100;

/**
 * How claims are paced: as fast as slots free up, or, while jobs wait for the workers (the money
 * pipeline is behind), at most `BEHIND_CLAIM_LIMIT` new attempts every `BEHIND_CLAIM_GAP_MS`.
 * Deliveries and jobs share the worker's CPU and PostgreSQL; however cheap an attempt, an
 * unpaced dispatcher with a backlog takes its share, so money comes first and deliveries catch up
 * after. Attempts under way are not limited: a hanging endpoint holds its own slots only.
 */
export function claimPace(behind: boolean, free: number): { limit: number; afterMs: number } {
  return behind ? { limit: Math.min(free, BEHIND_CLAIM_LIMIT), afterMs: BEHIND_CLAIM_GAP_MS } : { limit: free, afterMs: CLAIM_COALESCE_MS };
}
/** The longest `Retry-After` honoured. */
const MAX_RETRY_AFTER_MS = 10 * 3_600_000;

/**
 * When the attempt after a failed one is due: the endpoint's `Retry-After` on a 429 or 503, else
 * the schedule's step for this attempt, ±10 % so endpoints that failed together are not retried
 * together; null after the schedule's last step (given up).
 */
export function nextRetryAt(
  attempt: number,
  answer: Pick<WebhookAnswer, 'statusCode' | 'retryAfterMs'>,
  schedule: number[],
  now: Date,
  random = Math.random,
): Date | null {
  if (attempt > schedule.length) return null;
  const asked = (answer.statusCode === 429 || answer.statusCode === 503) && answer.retryAfterMs !== null;
  const delay = asked ? Math.min(Math.max(answer.retryAfterMs!, 1_000), MAX_RETRY_AFTER_MS) : schedule[attempt - 1] * (0.9 + 0.2 * random());
  return new Date(now.getTime() + Math.round(delay));
}

/**
 * Delivers the merchants' events, in the worker. Due deliveries are taken from PostgreSQL (where
 * each event's deliveries were written with it), a few at a time per endpoint and up to the
 * process's limit in all; each attempt runs on its own, so an endpoint that answers slowly or
 * never holds only its own few slots, never another endpoint's, another merchant's, or any job.
 * An attempt is leased: if the worker dies during it, the lease runs out and the event is sent
 * again with the same `webhook-id` (at least once, never lost). Woken by the deliveries trigger's
 * NOTIFY, with a poll as the fallback and for retries coming due.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly secrets: SecretBox;
  private readonly sender: WebhookSender;
  /** Every attempt, by outcome, on the worker's metrics. */
  private readonly attempts: Histogram<'outcome'>;
  private readonly inFlight = new Set<Promise<void>>();
  private listener?: PgListener;
  private poll?: NodeJS.Timeout;
  private pending?: NodeJS.Timeout;
  private claiming?: Promise<void>;
  private again = false;
  private stopped = false;
  /** Whether jobs were waiting at the last look (every `POLL_MS`). */
  private behind = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WebhooksRepository,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
    metrics: OpsMetrics,
  ) {
    this.attempts = new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: "Webhook delivery attempts by outcome (delivered, retrying, given_up, endpoint_disabled), timed from the request to the endpoint's answer",
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [metrics.registry],
    });
    this.secrets = webhookSecrets(config);
    this.sender = new WebhookSender(new WebhookUrlPolicy(config), config.webhooks.timeoutMs);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.poll = setInterval(() => {
      void this.look();
      this.wake();
    }, POLL_MS);
    this.listener = new PgListener(this.config.databaseUrl, WEBHOOK_DELIVERIES_CHANNEL, () => this.wake(), this.logger);
    await this.listener.start();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    // A process closed twice (a test restarting its worker) shuts down once.
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.pending);
    await this.listener?.stop();
    await this.claiming;
    // Attempts under way get a moment to finish and be recorded; then the rest are cut short (an
    // endpoint that never answers must not hold a shutdown for its timeout). Their leases run out
    // and another worker sends them again, with the same webhook-id.
    await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
    await this.sender.destroy();
    await Promise.all(this.inFlight);
  }

  /**
   * Claims soon: the wakes until then (attempts ending, events written) share one claim, which
   * fills every slot they freed at once instead of one claim each (`claimPace`).
   */
  wake(): void {
    if (this.stopped || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.claim();
    }, claimPace(this.behind, 0).afterMs);
  }

  private async look(): Promise<void> {
    try {
      this.behind = (await this.queues.waiting()) > 0;
    } catch {
      // Redis unreachable: the jobs are not running either (the registry's workers log it); deliver at full pace.
      this.behind = false;
    }
  }

  /** Takes what is due into the free slots, or asks the running pass to go again. */
  private claim(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.fill()
      .catch((err: Error) => this.logger.warn(`webhook claim failed, retrying: ${err.message}`))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async fill(): Promise<void> {
    const { concurrency, endpointConcurrency, timeoutMs } = this.config.webhooks;
    const { limit } = claimPace(this.behind, concurrency - this.inFlight.size);
    if (limit <= 0) return;
    for (const delivery of await this.repository.claim(limit, endpointConcurrency, timeoutMs + LEASE_MARGIN_MS)) {
      const attempt: Promise<void> = this.attempt(delivery)
        .catch((err: Error) => this.logger.warn(`webhook ${delivery.event.id} to ${delivery.endpoint.id} not recorded: ${err.message}`))
        .finally(() => {
          this.inFlight.delete(attempt);
          this.wake();
        });
      this.inFlight.add(attempt);
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { endpoint, event } = delivery;
    const attemptedAt = new Date();
    const secrets = [this.secrets.open(endpoint.sealedSecret)];
    if (endpoint.sealedPreviousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > attemptedAt)
      secrets.push(this.secrets.open(endpoint.sealedPreviousSecret));
    const answer = await this.sender.send({ url: endpoint.url, eventId: event.id, body: JSON.stringify(mapEvent(event)), secrets }, attemptedAt);
    const delivered = answer.error === null && answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    const failingFor = delivered ? 0 : attemptedAt.getTime() - (endpoint.failingSince ?? attemptedAt).getTime();
    const disable: WebhookDisabledReason | null =
      answer.statusCode === 410 ? 'gone' : !delivered && failingFor >= this.config.webhooks.disableAfterMs ? 'failing' : null;
    const outcome: AttemptOutcome = {
      id: newId('wha'),
      round: delivery.round,
      endpointId: endpoint.id,
      eventId: event.id,
      attempt: delivery.attempt,
      attemptedAt,
      statusCode: answer.statusCode,
      durationMs: answer.durationMs,
      responseBody: answer.responseBody,
      error: answer.error,
      delivered,
      nextRetryAt: delivered ? null : nextRetryAt(delivery.attempt, answer, this.config.webhooks.retryScheduleMs, attemptedAt),
      disable,
    };
    await this.dataSource.transaction(async (manager) => {
      const disabledNow = await this.repository.recordAttempt(manager, outcome);
      if (disabledNow && disable === 'failing') await this.outbox.enqueue(manager, EVENTS_JOBS.mailEndpointDisabled, { endpointId: endpoint.id });
    });
    const counted = delivered ? 'delivered' : disable ? 'endpoint_disabled' : outcome.nextRetryAt ? 'retrying' : 'given_up';
    this.attempts.observe({ outcome: counted }, answer.durationMs / 1000);
  }
}
