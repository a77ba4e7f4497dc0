import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PgListener } from '../common/persistence/pg-listener';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { JobQueues } from './job-queues';
import { JobRegistry } from './job.registry';
import { withTraceParent } from '../common/tracing/tracing';
import { OUTBOX_CHANNEL, OutboxRepository } from './outbox.repository';

const BATCH = 100;
/** Fallback when a notification is missed (the LISTEN connection was down at the time). */
const POLL_MS = 1_000;

/**
 * Moves outbox rows to their queues, in the worker. Rows are claimed with SKIP LOCKED, added to
 * BullMQ with their deterministic job ids, and deleted in the same transaction: a crash or a
 * Redis failure before the commit leaves them for the next pass, and adding a job twice is a
 * no-op while it exists, so a row is never lost and its work never doubled. Woken by the
 * outbox trigger's NOTIFY, with a poll as the fallback.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener?: PgListener;
  private poll?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: OutboxRepository,
    private readonly registry: JobRegistry,
    private readonly queues: JobQueues,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.poll = setInterval(() => this.wake(), POLL_MS);
    this.listener = new PgListener(this.config.databaseUrl, OUTBOX_CHANNEL, () => this.wake(), this.logger);
    await this.listener.start();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    await this.listener?.stop();
    await this.draining;
  }

  /** Starts a pass, or asks the running one to go again when it ends. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((err: Error) => this.logger.warn(`outbox relay pass failed, retrying: ${err.message}`))
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Relays until the outbox is empty. */
  async drain(): Promise<void> {
    while (!this.stopped && (await this.relayBatch()) === BATCH);
  }

  private relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await this.repository.claim(manager, this.registry.jobNames(), BATCH);
      for (const row of rows) await withTraceParent(row.trace_parent, () => this.queues.add(this.registry.definition(row.job_name)!, row.payload, row.job_id));
      if (rows.length > 0)
        await this.repository.remove(
          manager,
          rows.map((row) => row.id),
        );
      return rows.length;
    });
  }
}
