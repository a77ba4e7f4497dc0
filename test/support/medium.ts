/**
 * "Medium" specs (`src/**\/*.medium-spec.ts`): real services of the application, wired by Nest as
 * in production, against a database of their own with every migration applied, the local Redis
 * and, where a module talks to a third party, the real sandbox servers on free ports. Each spec
 * file calls `startMedium` in `beforeAll` and `close()` in `afterAll`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { DynamicModule, ForwardReference, LoggerService, Provider, Type } from '@nestjs/common';
import { Test, TestingModule, TestingModuleBuilder } from '@nestjs/testing';
import Redis from 'ioredis';
import { Client, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids/ids';
import { AppConfig, loadConfig } from '../../src/config/app.config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { JobsModule } from '../../src/jobs';
import type { Posting } from '../../src/modules/ledger';
import { MetricsModule } from '../../src/modules/metrics';
import { RedisModule } from '../../src/redis/redis.module';
import { Resources } from './resources';
import { connectTo, createTestDatabase, TestDatabase } from './test-database';

export { eventually, sleep } from './poll';
export { startSandboxes } from './sandboxes';
export type { Sandbox, SandboxRequest } from './sandboxes';

type Import = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

export interface MediumOptions {
  /** Names the queue prefix, so the spec's queues and Redis keys are its own. */
  name: string;
  /** The queue prefix itself, for a spec that writes to Redis before the application starts. */
  queuePrefix?: string;
  /** The feature module(s) under test. */
  imports?: Import[];
  providers?: Provider[];
  /** Run the job registry's BullMQ workers and the outbox relay (the worker process). Default false. */
  worker?: boolean;
  /** Environment on top of NODE_ENV, DATABASE_URL and QUEUE_PREFIX (e.g. the sandboxes' URLs). */
  env?: Record<string, string>;
  /** Overrides, for third-party adapters at the module boundary only. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Warnings and errors matching these are recorded in `logs` but not printed (expected ones). */
  quiet?: RegExp[];
}

export interface Medium {
  app: TestingModule;
  config: AppConfig;
  db: TestDatabase;
  /** The application's own DataSource. */
  dataSource: DataSource;
  /** A connection of the spec's own, outside the application's pool: set-up and assertions. */
  pg: Client;
  /** Every line the application logged through Nest, as `level [context] message`. */
  logs: string[];
  sql<R extends QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  /** A merchant row (one is made on first use and shared). */
  merchant(): Promise<string>;
  /** A business row; columns not given take the table's defaults (see the Init migration). */
  insertBusiness(columns?: BusinessColumns): Promise<string>;
  business(id: string): Promise<BusinessRow>;
  /** The business's status history, oldest first. */
  history(businessId: string): Promise<HistoryRow[]>;
  /** The outbox's rows, oldest first. */
  outbox(): Promise<OutboxRow[]>;
  close(): Promise<void>;
}

export interface BusinessColumns {
  /** Another merchant's (by default the medium's own). */
  merchant_id?: string;
  business_name?: string;
  allow_naira_collection?: boolean;
  agreement_status?: string;
  kyb_status?: string;
  naira_collection_status?: string;
  /** A real wallet's index and addresses (`WalletAddressPool.next()`), where chains must see the vault. */
  wallet_index?: number;
  evm_address?: string;
  svm_address?: string;
}

export interface BusinessRow {
  id: string;
  agreement_status: string;
  kyb_status: string;
  naira_collection_status: string;
  allow_naira_collection: boolean;
  kyb_pending_requirements: { code: string; field: string; message: string }[];
  kyb_last_synced_at: Date | null;
  agreement_accepted_at: Date | null;
  updated_at: Date;
}

export interface HistoryRow {
  field: string;
  from_status: string;
  to_status: string;
  cause: string;
}

export interface OutboxRow {
  job_name: string;
  job_id: string;
  payload: Record<string, string>;
}

const LEVELS_PRINTED = new Set(['error', 'fatal', 'warn']);

/** Nest's logger for the spec: records every line; prints warnings and errors (all with MEDIUM_LOG=1). */
class RecordingLogger implements LoggerService {
  constructor(
    private readonly lines: string[],
    private readonly quiet: RegExp[],
  ) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.record('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.record('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.record('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.record('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.record('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.record('fatal', message, rest);
  }

  private record(level: string, message: unknown, rest: unknown[]): void {
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : '';
    const text = message instanceof Error ? (message.stack ?? message.message) : typeof message === 'string' ? message : JSON.stringify(message);
    const line = `${level} [${context}] ${text}`;
    this.lines.push(line);
    const print = process.env.MEDIUM_LOG ? true : LEVELS_PRINTED.has(level) && !this.quiet.some((pattern) => pattern.test(line));
    if (print) process.stderr.write(`${line}\n`);
  }
}

/** Integer column with a unique index: far above what the application's sequence hands out in a spec. */
let nextWalletIndex = 1_000_000_000 + randomInt(0, 500_000_000);

/**
 * A fresh migrated database, a unique queue prefix, and a Nest testing module with the
 * configuration, the database, Redis, the job registry and `options.imports`, initialised (the
 * lifecycle hooks ran). Whatever was started is stopped again if a later step fails.
 */
export async function startMedium(options: MediumOptions): Promise<Medium> {
  const resources = new Resources();
  return resources.build(async () => {
    const db = await resources.add(createTestDatabase(), (created) => created.drop());

    const queuePrefix = options.queuePrefix ?? `medium-${options.name}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', ...options.env, DATABASE_URL: db.url, QUEUE_PREFIX: queuePrefix });
    await resources.add(Promise.resolve(), () => deleteRedisKeys(config.redisUrl, queuePrefix));

    const logs: string[] = [];
    let builder = Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        RedisModule,
        MetricsModule,
        JobsModule.forRoot({ worker: options.worker ?? false }),
        ...(options.imports ?? []),
      ],
      providers: options.providers ?? [],
    }).setLogger(new RecordingLogger(logs, options.quiet ?? []));
    if (options.override) builder = options.override(builder);
    const app = await resources.add(builder.compile(), (compiled) => compiled.close());
    await app.init();

    const pg = await resources.add(connectTo(db.url), (client) => client.end());

    const sql = async <R extends QueryResultRow>(text: string, values?: unknown[]) => (await pg.query<R>(text, values)).rows;
    let merchantId: string | undefined;
    const merchant = async () => {
      if (!merchantId) {
        merchantId = newId('mer');
        await sql('INSERT INTO merchants (id, name) VALUES ($1, $2)', [merchantId, 'Medium Merchant']);
      }
      return merchantId;
    };

    return {
      app,
      config,
      db,
      dataSource: app.get(DataSource),
      pg,
      logs,
      sql,
      merchant,
      async insertBusiness(columns = {}) {
        const id = newId('pobo');
        const walletIndex = nextWalletIndex++;
        const values: Record<string, unknown> = {
          id,
          merchant_id: await merchant(),
          business_name: 'Medium Trading Ltd',
          email: 'finance@medium.example',
          phone_number: '+2348012345678',
          country: 'NG',
          wallet_index: walletIndex,
          evm_address: `0xmedium${walletIndex}`,
          svm_address: `medium${walletIndex}`,
          ...columns,
        };
        const names = Object.keys(values);
        await sql(
          `INSERT INTO pobo_businesses (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
          names.map((name) => values[name]),
        );
        return id;
      },
      async business(id) {
        const [row] = await sql<BusinessRow>('SELECT * FROM pobo_businesses WHERE id = $1', [id]);
        if (!row) throw new Error(`no business ${id}`);
        return row;
      },
      history: (businessId) =>
        sql<HistoryRow>('SELECT field, from_status, to_status, cause FROM business_status_history WHERE business_id = $1 ORDER BY id', [businessId]),
      outbox: () => sql<OutboxRow>('SELECT job_name, job_id, payload FROM outbox ORDER BY id'),
      close: () => resources.close(),
    };
  });
}

/** A confirmed collection, as the ledger books one: the merchant's available balance goes up by `amount` kobo. */
export function confirmedPayment(merchantId: string, amount: number): Posting {
  return {
    type: 'payment_confirmed',
    sourceId: newId('pi'),
    currency: 'NGN',
    lines: [
      { account: { platform: 'unconfirmed_collections' }, amount: -amount },
      { account: { merchantId, kind: 'available' }, amount },
    ],
    balanceTransactions: [{ merchantId, type: 'payment', amount }],
  };
}

/** Removes the spec's queues, locks and schedulers from Redis. */
async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
