/**
 * `npm run bench`: one deployment (`bench/deployment.ts`: a throw-away database seeded with a
 * merchant's 100,000 businesses, the built API in production mode, the reference server and the
 * sandboxes), then each selected part in its order, each in its own file: `core` (GET one against
 * the reference, list, create, memory), `money`, `collections`, `dashboard`, `kyb`, `kyb-worker`,
 * `international` and `vault`. Then the report and `bench/results/latest.json`.
 * `BENCH_PARTS` (or the arguments) selects parts; see bench/README.md, also for reading the output.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { dropDatabase } from '../src/database/ensure-database';
import { runCollectionsPart } from './collections';
import { runCorePart } from './core';
import { runDashboardPart } from './dashboard';
import { BenchPart, deploy, removeQueueKeys, verifyMs } from './deployment';
import { runInternationalPart } from './international';
import { runKybPart } from './kyb';
import { runKybWorkerPart } from './kyb-worker';
import { CLK_TCK, printReport, summarise } from './measure';
import { runMoneyPart, Target } from './money';
import { abort, log, stopChild, Started, stopEverything } from './processes';
import {
  ALL_PARTS,
  API_NODE_ARGS,
  APP_LOG_LEVEL,
  BUSINESSES,
  CONNECTIONS,
  DATABASE_NAME,
  DB_POOL_SIZE,
  DEADLINE_S,
  DURATION_S,
  INTL_CALLBACKS,
  INTL_CREATION_CONCURRENCY,
  INTL_INTENTS,
  INTL_WORKERS,
  MIXED_S,
  Part,
  PARTS,
  PAYOUT_DELAY_MS,
  PG_BASE_URL,
  QUEUE_PREFIX,
  RESULTS_FILE,
  ROUNDS,
  SETTLEMENT_STEP_MS,
  WARMUP_S,
  WORKER_DB_POOL_SIZE,
} from './settings';
import { runVaultPart } from './vault';
import { runOpsPart } from './ops';
import { runScalePart } from './scale';
import { runWebhooksPart } from './webhooks';

/** Each part, in the order the parts run. */
const RUN: Record<Part, BenchPart> = {
  core: runCorePart,
  money: runMoneyPart,
  collections: runCollectionsPart,
  dashboard: runDashboardPart,
  kyb: runKybPart,
  'kyb-worker': runKybWorkerPart,
  international: runInternationalPart,
  vault: runVaultPart,
  webhooks: runWebhooksPart,
  ops: runOpsPart,
  scale: runScalePart,
};

async function main(): Promise<number> {
  const deadline = setTimeout(() => stopEverything(`deadline of ${DEADLINE_S}s reached`), DEADLINE_S * 1000);
  deadline.unref();
  const databaseUrl = `${PG_BASE_URL.replace(/\/+$/, '')}/${DATABASE_NAME}`;
  const started: Started[] = [];
  try {
    return await bench(databaseUrl, started);
  } finally {
    for (const server of started) await stopChild(server.child);
    await dropDatabase(databaseUrl).catch((err: Error) => process.stderr.write(`bench: could not drop ${DATABASE_NAME}: ${err.message}\n`));
    await removeQueueKeys().catch((err: Error) => process.stderr.write(`bench: could not remove ${QUEUE_PREFIX}:* keys: ${err.message}\n`));
    clearTimeout(deadline);
  }
}

async function bench(databaseUrl: string, started: Started[]): Promise<number> {
  const startedAt = new Date();
  log(
    `machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  log(`settings: ${BUSINESSES} businesses, ${CONNECTIONS} connections, ${WARMUP_S}s warm-up, ${DURATION_S}s per run, ${ROUNDS} alternating GET-one rounds`);
  log(`parts: ${[...PARTS].join(', ')}${PARTS.size < ALL_PARTS.length ? ` (of ${ALL_PARTS.join(', ')})` : ''}`);
  if (API_NODE_ARGS.length > 0) log(`API node flags, after those of npm run start:api: ${API_NODE_ARGS.join(' ')}`);
  log(
    `API log level: ${APP_LOG_LEVEL} (stdout to /dev/null)${APP_LOG_LEVEL === 'info' ? ': every request is serialised to an access-log line, as in production' : ''}`,
  );

  const deployment = await deploy(databaseUrl, started);
  const targets: Target[] = [];
  const results: Record<string, unknown> = {};
  for (const part of ALL_PARTS.filter((name) => PARTS.has(name))) {
    const outcome = await RUN[part](deployment);
    targets.push(...outcome.targets);
    Object.assign(results, outcome.results);
  }

  if (verifyMs.length > 0) {
    targets.push({
      name: `ledger:verify wall time (whole command, ${BUSINESSES.toLocaleString('en')} businesses)`,
      target: 'reported',
      measured: verifyMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', '),
      pass: null,
    });
    results.ledgerVerify = { wallMs: verifyMs };
  }
  const summaries = summarise(deployment.runs);
  printReport(summaries, targets, deployment.runs);

  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { cpus: cpus().length, model: cpus()[0]?.model, loadAverageAtEnd: loadavg(), node: process.version, clockTicks: CLK_TCK },
        settings: {
          parts: [...PARTS],
          businesses: BUSINESSES,
          connections: CONNECTIONS,
          durationS: DURATION_S,
          warmupS: WARMUP_S,
          getOneRounds: ROUNDS,
          mixedS: MIXED_S,
          sandboxPayoutDelayMs: PAYOUT_DELAY_MS,
          sandboxSettlementStepMs: SETTLEMENT_STEP_MS,
          apiLogLevel: APP_LOG_LEVEL,
          apiLogDestination: '/dev/null',
          dbPoolSize: DB_POOL_SIZE,
          workerDbPoolSize: WORKER_DB_POOL_SIZE,
          apiNodeArgs: deployment.apiNodeArgs,
          workerNodeArgs: deployment.workerNodeArgs,
          internationalIntents: INTL_INTENTS,
          internationalWorkers: INTL_WORKERS,
          internationalCreationConcurrency: INTL_CREATION_CONCURRENCY,
          internationalRailCallbacks: INTL_CALLBACKS,
        },
        summaries,
        ...results,
        targets,
        runs: deployment.runs,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nresults written to ${RESULTS_FILE}`);
  const failed = targets.filter((t) => t.pass === false).length;
  return failed > 0 && process.env.BENCH_STRICT === '1' ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const reason = abort.signal.aborted ? (abort.signal.reason as Error).message : undefined;
    process.stderr.write(`bench failed: ${reason ?? (err instanceof Error ? err.stack : String(err))}\n`);
    process.exit(1);
  },
);
