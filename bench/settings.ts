/** The bench's settings: the defaults, with environment overrides for quick local tries. */
import { join, resolve } from 'node:path';

export const BUSINESSES = intEnv('BENCH_BUSINESSES', 100_000);
/** Objects of each kind the dashboard's signed-in merchant has, for search and the daily figures. */
export const DASHBOARD_OBJECTS = intEnv('BENCH_DASHBOARD_OBJECTS', 100_000);
export const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 50);
export const DURATION_S = intEnv('BENCH_DURATION_S', 10);
export const WARMUP_S = intEnv('BENCH_WARMUP_S', 3);
export const ROUNDS = intEnv('BENCH_ROUNDS', 2);
/** The mixed money-movement run (create payment intent + GET one + replay), watching the API's RSS. */
export const MIXED_S = intEnv('BENCH_MIXED_S', 60);
/** How long the sandbox rail keeps a payout `processing` before its outcome and callback. */
export const PAYOUT_DELAY_MS = 20;
/** `info` is the production default: one access-log line per request, serialised then discarded. */
export const APP_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
export const PG_BASE_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const DATABASE_NAME = 'merchant_api_bench';
export const DEADLINE_S = intEnv('BENCH_TIMEOUT_S', 3600);
export const DB_POOL_SIZE = intEnv('BENCH_DB_POOL_SIZE', 20);
/** Extra node flags for the API process, after those of `npm run start:api`, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
export const API_NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** Node flags for the contract reference, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof-ref` to profile it beside the API. */
export const CONTRACT_NODE_ARGS = (process.env.BENCH_CONTRACT_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** Extra node flags for the worker process, after those of `npm run start:worker`, e.g. `--max-semi-space-size=1`. */
export const EXTRA_WORKER_NODE_ARGS = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** The worker's pool (the international pipeline's workers and the KYB worker); the API's by default. */
export const WORKER_DB_POOL_SIZE = intEnv('BENCH_WORKER_DB_POOL_SIZE', DB_POOL_SIZE);
/** International pipeline: intents per run, and the worker processes of each run, in order. */
export const INTL_INTENTS = intEnv('BENCH_INTL_INTENTS', 1_000);
export const INTL_WORKERS = listEnv('BENCH_INTL_WORKERS', '1,2').map(Number);
/** Quotes + intents created at once while setting up a pipeline run (not measured). */
export const INTL_CREATION_CONCURRENCY = intEnv('BENCH_INTL_CREATION_CONCURRENCY', 16);
/** A diagnostic: `BENCH_INTL_CALLBACKS=0` turns the cross-border rails' callbacks off for the pipeline runs. */
export const INTL_CALLBACKS = process.env.BENCH_INTL_CALLBACKS !== '0';
/** The parts of the bench, in the order they run; `BENCH_PARTS` or the arguments select some (all by default). */
export const ALL_PARTS = ['core', 'money', 'collections', 'dashboard', 'kyb', 'kyb-worker', 'international', 'vault', 'webhooks', 'ops', 'scale'] as const;
/** The scale part's sizes: the scale merchant's businesses (and ledger payments) at each step, growing. */
export const SCALE_SIZES = listEnv('BENCH_SCALE_SIZES', '10000,100000,1000000').map(Number);
export type Part = (typeof ALL_PARTS)[number];
export const PARTS = selectedParts();
/** How long the cross-border sandbox rails keep a leg pending: 0, each leg is final in the rail's answer. */
export const SETTLEMENT_STEP_MS = 0;
/** Sample of seeded ids the GET-one scenarios cycle through (both servers get the same list). */
export const ID_SAMPLE = 10_000;
export const HOST = '127.0.0.1';
/** The vault part: confirmations on every local chain, and how often the worker reads them. */
export const VAULT_CONFIRMATIONS = 3;
export const VAULT_POLL_MS = intEnv('BENCH_VAULT_POLL_MS', 250);
/** Queue keys of the bench's API are kept apart from anyone else's on the shared Redis, and removed. */
export const QUEUE_PREFIX = `merchant-api-bench-${process.pid}`;

export const DIST_DIR = resolve(__dirname, '..');
export const ROOT_DIR = resolve(DIST_DIR, '..');
export const APP_MAIN = join(DIST_DIR, 'src', 'main.js');
export const WORKER_MAIN = join(DIST_DIR, 'src', 'worker.js');
export const MERCHANT_CLI = join(DIST_DIR, 'src', 'cli', 'merchant.cli.js');
export const LEDGER_CLI = join(DIST_DIR, 'src', 'cli', 'ledger.cli.js');
export const REFERENCE_MAIN = join(__dirname, 'reference-server.js');
export const PROVIDER_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'verification-provider', 'main.js');
export const BANK_RAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'bank-rail', 'main.js');
export const BRIDGE_RAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'bridge-rail', 'main.js');
export const PAYOUT_RAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'payout-rail', 'main.js');
export const MAIL_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'mail', 'main.js');
export const CHAINS_SANDBOX_MAIN = join(DIST_DIR, 'sandbox', 'chains', 'main.js');
export const RESULTS_FILE = join(ROOT_DIR, 'bench', 'results', 'latest.json');

function listEnv(name: string, fallback: string): string[] {
  return (process.env[name] || fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `BENCH_PARTS=international,money` or `node dist/bench/run.js international money` (the arguments win); all parts when neither is given. */
function selectedParts(): Set<Part> {
  const asked = process.argv.slice(2).length > 0 ? process.argv.slice(2).flatMap((arg) => arg.split(',')) : listEnv('BENCH_PARTS', ALL_PARTS.join(','));
  const unknown = asked.filter((part) => !(ALL_PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`unknown bench part(s) ${unknown.join(', ')}: the parts are ${ALL_PARTS.join(', ')}`);
  const workers = (process.env.BENCH_INTL_WORKERS || '1,2').split(',').map(Number);
  if (workers.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_INTL_WORKERS must list worker counts (e.g. 1,2), not ${process.env.BENCH_INTL_WORKERS}`);
  return new Set(ALL_PARTS.filter((part) => asked.includes(part)));
}

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
