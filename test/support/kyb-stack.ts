import { Client } from 'pg';
import { Resources } from './resources';
import { Sandbox, startSandboxes } from './sandboxes';
import { startTestApp, TestApp } from './test-app';
import { createTestDatabase, TestDatabase } from './test-database';
import { startTestWorker } from './test-worker';

/** Everything a KYB suite runs against: its own database, queues and sandboxes. */
export interface KybStack {
  db: TestDatabase;
  t: TestApp;
  verification: Sandbox;
  bankRail: Sandbox;
  pg: Client;
  /** The environment the app (and any worker) was started with. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface KybStackOptions {
  /** Names the queue prefix. */
  name: string;
  /** How long the sandbox provider takes to review an application. */
  reviewDelayMs: number;
  /** Settings on top of the sandboxes' URLs and keys and the queue prefix. */
  env?: Record<string, string>;
  /** Start a worker in this process (suites that run worker processes start their own). */
  worker?: boolean;
  startApp?: (databaseUrl: string, env: Record<string, string>) => Promise<TestApp>;
}

export async function startKybStack(options: KybStackOptions): Promise<KybStack> {
  const resources = new Resources();
  return resources.build(async () => {
    const db = await resources.add(createTestDatabase(), (created) => created.drop());
    const { verification, bankRail, env: sandboxEnv } = await resources.add(startSandboxes(options.reviewDelayMs), (started) => started.close());
    const env = { ...sandboxEnv, QUEUE_PREFIX: `${options.name}-${process.pid}-${Date.now()}`, ...options.env };
    const t = await resources.add((options.startApp ?? startTestApp)(db.url, env), (app) => app.close());
    if (options.worker) await resources.add(startTestWorker(db.url, env), (started) => started.close());
    const pg = await resources.add(
      (async () => {
        const client = new Client({ connectionString: db.url });
        await client.connect();
        return client;
      })(),
      (client) => client.end(),
    );
    return { db, t, verification, bankRail, pg, env, close: () => resources.close() };
  });
}
