import { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { startTestChains, TestChains, TestChainsOptions } from './chains';
import { Inbox, startInbox } from './mail-sandbox';
import { Resources } from './resources';
import { CrossBorderSandbox, Sandbox, startCrossBorderSandboxes, startSandboxes } from './sandboxes';
import { startTestApp, TestApp } from './test-app';
import { connectTo, createTestDatabase, TestDatabase } from './test-database';
import { startTestWorker } from './test-worker';
import { BANK_RAIL_CALLBACK_PATH, BRIDGE_RAIL_CALLBACK_PATH, PAYOUT_RAIL_CALLBACK_PATH } from '../../src/modules/rail-events/rail-events.routes';

export interface StackOptions {
  /** Names the queue prefix, so suites running side by side never share queues. */
  name: string;
  /** Settings on top of the sandboxes' URLs and the queue prefix. */
  env?: Record<string, string>;
  /** The verification provider and the bank rail, as HTTP servers; the rail calls the app back. */
  sandboxes?: { reviewDelayMs?: number; payoutDelayMs?: number };
  /** Both cross-border rails as well, calling the app back. */
  crossBorder?: { settlementStepMs?: number };
  /** The local chains, in this process, for the vault. */
  chains?: TestChainsOptions;
  /** A worker in this process (suites that run worker processes start their own). */
  worker?: boolean;
  /** Merchants to create, by name; their keys are in `merchants`, in this order. */
  merchants?: string[];
  /** How the app is started (at a public URL, say); the real app on a free port by default. */
  startApp?: (databaseUrl: string, env: Record<string, string>) => Promise<TestApp>;
}

export interface Stack {
  db: TestDatabase;
  t: TestApp;
  /** A connection of the suite's own to its database. */
  pg: Client;
  /** The environment the app (and any worker) was started with. */
  env: Record<string, string>;
  worker?: INestApplicationContext;
  merchants: { merchantId: string; apiKeyId: string; apiKey: string }[];
  verification?: Sandbox;
  bankRail?: Sandbox;
  bridgeRail?: CrossBorderSandbox;
  payoutRail?: CrossBorderSandbox;
  chains?: TestChains;
  /** The development SMTP server the app and worker send to, and its inbox. */
  inbox: Inbox;
  /** Points the bank rail's callbacks at an app (another process, say). */
  callbacksTo(baseUrl: string): Promise<void>;
  /** Points both cross-border rails' callbacks at an app (null: nowhere). */
  railCallbacksTo(baseUrl: string | null): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one test stack builder, for medium and e2e suites: its own migrated database, the sandboxes
 * asked for, the real app, a worker, a connection and merchants. Everything started is released
 * by `close`, newest first, and also when a later step of the set-up fails.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const resources = new Resources();
  return resources.build(async () => {
    const db = await resources.add(createTestDatabase(), (created) => created.drop());
    const sandboxes = options.sandboxes
      ? await resources.add(startSandboxes(options.sandboxes.reviewDelayMs ?? 0, { payoutDelayMs: options.sandboxes.payoutDelayMs }), (s) => s.close())
      : undefined;
    const rails = options.crossBorder
      ? await resources.add(startCrossBorderSandboxes({ settlementStepMs: options.crossBorder.settlementStepMs }), (s) => s.close())
      : undefined;
    const chains = options.chains ? await resources.add(startTestChains(options.chains), (started) => started.close()) : undefined;
    const inbox = await resources.add(startInbox(), (started) => started.close());
    const env = {
      ...sandboxes?.env,
      ...rails?.env,
      ...chains?.env,
      ...inbox.env,
      QUEUE_PREFIX: `${options.name}-${process.pid}-${Date.now()}`,
      ...options.env,
    };
    const t = await resources.add((options.startApp ?? startTestApp)(db.url, env), (app) => app.close());

    const callbacksTo = async (baseUrl: string) => {
      await sandboxes?.bankRail.control('webhook', { url: `${baseUrl}${BANK_RAIL_CALLBACK_PATH}` });
    };
    const railCallbacksTo = async (baseUrl: string | null) => {
      await rails?.bridgeRail.callbacksTo(baseUrl === null ? null : `${baseUrl}${BRIDGE_RAIL_CALLBACK_PATH}`);
      await rails?.payoutRail.callbacksTo(baseUrl === null ? null : `${baseUrl}${PAYOUT_RAIL_CALLBACK_PATH}`);
    };
    await callbacksTo(t.baseUrl);
    await railCallbacksTo(t.baseUrl);

    // The worker writes links for people (mailed ones): to the address the app is reached at.
    const worker = options.worker
      ? await resources.add(startTestWorker(db.url, { PUBLIC_BASE_URL: t.baseUrl, ...env }), (started) => started.close())
      : undefined;
    const pg = await resources.add(connectTo(db.url), (client) => client.end());
    const merchants = [];
    for (const name of options.merchants ?? []) merchants.push(await t.createMerchant(name));
    return {
      db,
      t,
      pg,
      env,
      worker,
      merchants,
      verification: sandboxes?.verification,
      bankRail: sandboxes?.bankRail,
      bridgeRail: rails?.bridgeRail,
      payoutRail: rails?.payoutRail,
      chains,
      inbox,
      callbacksTo,
      railCallbacksTo,
      close: () => resources.close(),
    };
  });
}
