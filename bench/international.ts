/**
 * International payment intents part of `npm run bench`:
 *
 * 1. Pipeline throughput: `BENCH_INTL_INTENTS` (1,000) intents are created through the API (a quote
 *    each, then the intent) with no worker running, so they wait in `pending` with their first job
 *    in the outbox. The outbox rows are held (`SELECT … FOR UPDATE`, which the relays skip), the
 *    worker process(es) are started as production starts them (`node [flags of start:worker]
 *    dist/src/worker.js`) and left to boot and idle, then the rows are released (with a NOTIFY, as
 *    the outbox trigger sends) and the clock starts. The sandbox rails answer every leg as final at
 *    once (settlement step 0) and call the API back. Measured: time from the release to the last
 *    `settled`, as intents/s; once with one worker process, then with two (`BENCH_INTL_WORKERS`,
 *    "1,2"). After each run the workers stop and `ledger:verify` runs.
 * 2. GET one international payment intent, alternating reference / API like GET one business, over
 *    the intents the pipeline settled (settled intents carry a receipt and a telex URL: the
 *    fullest answer).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type autocannon from 'autocannon';
import type { Client } from 'pg';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { OUTBOX_CHANNEL } from '../src/jobs/outbox.repository';
import { InternationalIntentsRepository } from '../src/modules/international-intents/international-intents.repository';
import { apiClient, fundBalance, MeasuredRun, Target } from './money';
import { intentFindOwnedQuery, statementSent } from './reference-server';
import { INTERNATIONAL_INTENTS_PATH, QUOTES_PATH } from '../src/modules/international-intents/international-intents.routes';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart, Deployment } from './deployment';
import { CLK_TCK, machineTicks, mean, processTicks, READ_SERVERS, ReadServer, sum } from './measure';
import { checkAborted, log, pidOf, stopChild, Started } from './processes';
import { formatRoundTrips, roundTripSnapshot, roundTripsPer, type RoundTrips } from './round-trips';
import { INTL_CALLBACKS, INTL_CREATION_CONCURRENCY, INTL_INTENTS, INTL_WORKERS, ROUNDS, SETTLEMENT_STEP_MS, WARMUP_S, WORKER_DB_POOL_SIZE } from './settings';

export const INTERNATIONAL_TARGETS = {
  /** Reference CPU µs/request ÷ the API's, for GET one international payment intent: against the plain floor, and the contract's. */
  getOneVsPlain: 0.65,
  getOneVsContract: 0.95,
  /** Commits per settled intent, the pipeline's round trips that cost a WAL flush (with the API's callbacks). */
  commitsPerIntent: 8,
};

/**
 * The burst run: every rail step takes 2 s, and 1,000 intents created in a burst (a worker running)
 * must all settle within both legs' steps plus 15 s of the last creation.
 */
const BURST_STEP_MS = 2_000;
const BURST_DEADLINE_MS = 2 * BURST_STEP_MS + 15_000;

export type InternationalScenario = 'intl-get-one';

/** What one recipient receives per intent (USD 1 costs about NGN 2,074 on the `ngn` route). */
const AMOUNT_USD = 1;
const POLL_MS = 50;
const PIPELINE_TIMEOUT_MS = 300_000;
const CALLBACKS_TIMEOUT_MS = 30_000;
/** Workers boot, schedule their periodic jobs and run them once before the gate opens. */
const IDLE_BEFORE_GATE_MS = 2_000;

export interface PipelineWorker {
  pid: number;
  /** Its operator port, for its statement count. */
  opsUrl: string;
  exited: () => string | undefined;
  outputTail: () => string;
  /** How many lines of its stdout so far contain `text` (one of the texts it was started to count). */
  count: (text: string) => number;
  lastCounted: (text: string) => string | undefined;
}

/** Substrings of the worker's log lines counted during a run (JobRegistry's warnings). */
export const WORKER_LOG_COUNTS = { jobFailed: 'failed (attempt', jobStalled: 'lost its worker' } as const;

export interface InternationalBenchInput {
  apiUrl: string;
  /** The plain and the contract references (`reference-server.ts`). */
  references: Record<'reference' | 'contract', { url: string; headers: Record<string, string> }>;
  apiKey: string;
  merchantId: string;
  databaseUrl: string;
  pids: { api: number; bridgeRail: number; payoutRail: number };
  /** The API's operator port, for its statement count. */
  apiOpsUrl: string;
  bridgeRailUrl: string;
  payoutRailUrl: string;
  intents: number;
  workerCounts: number[];
  /** Concurrent creations (quote + intent) while setting up a run; not measured. */
  creationConcurrency: number;
  /**
   * Whether the rails call the API back (the default, as in production). Off (a diagnostic), the
   * worker learns each leg's outcome from the rail's answer alone: no callback can move an intent
   * before the worker records that answer, so each intent is one job.
   */
  callbacks: boolean;
  rounds: number;
  warmUpS: number;
  /** Starts `count` worker processes; resolves once each has logged `worker started`. */
  startWorkers: (count: number) => Promise<PipelineWorker[]>;
  stopWorkers: () => Promise<void>;
  /** A measured GET one run against `server` (recorded with the others by the deployment). */
  measure: (server: ReadServer, round: number, requests: autocannon.Request[]) => Promise<MeasuredRun>;
  warm: (server: ReadServer, requests: autocannon.Request[], seconds: number) => Promise<autocannon.Result>;
  verifyLedger: () => Promise<{ code: number | null; report: unknown }>;
  /** CPU seconds (user + system, all threads) a process has used so far. */
  processCpuS: (pid: number) => number;
  /** Busy CPU seconds of the whole machine so far. */
  machineBusyS: () => number;
  clockTicks: number;
  checkAborted: () => void;
  log: (message: string) => void;
}

export interface PipelineRun {
  workers: number;
  intents: number;
  creation: { ms: number; perS: number; concurrency: number };
  /** Gate released → last `settled` (bench clock → the worker's `settled_at`). */
  ms: number;
  intentsPerS: number;
  /** From the first move out of `pending` to the last `settled`, both from the database (excludes the relay's first pass). */
  firstPickupToLastSettledMs: number;
  /** Gate released → first move out of `pending`. */
  gateToFirstPickupMs: number;
  /** Intents that left `pending` before the gate opened (should be 0: the clock would start late). */
  movedBeforeGate: number;
  byStatus: Record<string, number>;
  /** Per intent, picked up (`processing`) → `settled`, as recorded (history created_at → settled_at): p50 / p99 / max ms. */
  perIntentMs: { p50: number; p99: number; max: number };
  /** Follow-up jobs that rail callbacks put in the outbox (a callback that moved the intent before the worker recorded the rail's answer). */
  callbackFollowUps: number;
  /** Rail events the API recorded for these intents, by rail, and the rails' callback deliveries by HTTP status. */
  railEvents: Record<string, number>;
  callbackDeliveries: { bridge: Record<string, number>; payout: Record<string, number> };
  /** Create requests each rail received (replays of one reference included) and legs it created: requests above creations are repeated calls. */
  railCreates: { bridge: RailCreates; payout: RailCreates };
  /** Job failures and stalls the workers logged during the run. */
  workerLog: { jobFailed: number; jobStalled: number; lastFailure?: string };
  /**
   * CPU used during the run (gate → last settled), in cores: per process, PostgreSQL (the bench
   * database's backends and the server's own processes), Redis, and `other` (the rest of the machine:
   * other people's work).
   */
  cores: {
    workers: number[];
    api: number;
    bridgeRail: number;
    payoutRail: number;
    bench: number;
    postgres: number;
    redis: number;
    other: number;
    machine: number;
  };
  /** The same in CPU milliseconds per intent. */
  cpuMsPerIntent: { workers: number; api: number; rails: number; postgres: number; redis: number };
  /**
   * Sessions of the bench database doing something (`active` or `idle in transaction`), sampled with
   * each poll: their mean number, and what they were waiting on (share of samples, e.g. `Lock:tuple`,
   * `IO:WALSync`, `Client:ClientRead` for a transaction waiting on its client, `CPU` for no wait).
   */
  postgresSessions: { samples: number; meanBusy: number; waits: Record<string, number>; lockWaitsBy: Record<string, number> };
  /** PostgreSQL's counters for the bench database over the run (workers stopped, callbacks landed): per intent. */
  postgresPerIntent: { rollbacks: number; rowsInserted: number; rowsUpdated: number; rowsDeleted: number; seqScans: Record<string, number> };
  /** Statements the workers and the API sent, and commits, per settled intent (the bench's own polling taken out). */
  roundTripsPerIntent: RoundTrips;
  ledgerVerify: { exitCode: number | null; report: unknown; ok: boolean };
  workerExits: (string | undefined)[];
}

export interface InternationalBenchResult {
  amountUsd: number;
  sourceAmountNgn: number;
  fundedNgn: number;
  pipeline: PipelineRun[];
  burst: BurstRun;
  getOne: {
    ids: number;
    bytes: number;
    /** CPU µs per request and req/s of each server's rounds. */
    servers: Record<ReadServer, { rps: number; cpuUsPerRequest: number }>;
    apiNon2xx: number;
    cpuVsPlain: number;
    cpuVsContract: number;
  };
  targets: Target[];
}

/** The burst run's figures: from the last creation to the last settled, with each rail step at 2 s. */
export interface BurstRun {
  intents: number;
  stepMs: number;
  creationMs: number;
  lastCreationToLastSettledMs: number;
  byStatus: Record<string, number>;
}

/** What pipeline runs need of the deployment (the GET-one comparison needs the rest of `InternationalBenchInput`). */
export type PipelineInput = Omit<InternationalBenchInput, 'references' | 'workerCounts' | 'rounds' | 'warmUpS' | 'measure' | 'warm'>;

/** A verified business with the NGN for `runs` pipeline runs, and what runs them. */
export interface Pipelines {
  poboUserId: string;
  sourceAmountNgn: number;
  fundedNgn: number;
  /** Every intent the runs so far created. */
  ids: string[];
  /** One pipeline run of `input.intents` intents with `workers` worker processes. */
  run: (workers: number) => Promise<PipelineRun>;
}

export async function preparePipelines(input: PipelineInput, pg: Client, runs: number): Promise<Pipelines> {
  const { log } = input;
  const tag = randomBytes(4).toString('hex');
  const api = apiClient(input.apiUrl, input.apiKey);
  await input.stopWorkers();

  // A business of the merchant, KYB-verified directly (as the seed writes statuses directly).
  const business = await api.post(
    POBO_USERS_PATH,
    JSON.stringify({ businessName: `Bench International ${tag}`, email: `intl-${tag}@bench.example`, phoneNumber: '+2348012345678', country: 'NG' }),
    `bench-${tag}-business`,
  );
  const poboUserId = (business.json as { response?: { poboUserId?: string } } | undefined)?.response?.poboUserId;
  if (business.status !== 201 || !poboUserId) throw new Error(`creating the business answered ${business.status}: ${business.text}`);
  await pg.query(
    `UPDATE pobo_businesses SET agreement_status = 'accepted', agreement_accepted_at = now(), kyb_status = 'verified', kyb_last_synced_at = now() WHERE id = $1`,
    [poboUserId],
  );

  // The NGN balance for every run, funded once the way a merchant's money arrives.
  const probe = await api.post(QUOTES_PATH, JSON.stringify({ poboUserId, destinationCountry: 'US', currency: 'USD', amount: AMOUNT_USD }));
  if (probe.status !== 201) throw new Error(`creating a quote answered ${probe.status}: ${probe.text}`);
  const sourceAmountNgn = (probe.json as QuoteAnswer).response.options[0].sourceAmount;
  const fundedNgn = Math.ceil(sourceAmountNgn * input.intents * runs * 1.01) + 1_000;
  await fundBalance(api, `${tag}-intl`, fundedNgn, input.checkAborted);
  log(
    `international: business ${poboUserId} (verified), NGN ${fundedNgn.toLocaleString('en-US')} funded; each intent USD ${AMOUNT_USD} = NGN ${sourceAmountNgn}`,
  );

  if (!input.callbacks) {
    for (const url of [input.bridgeRailUrl, input.payoutRailUrl]) {
      const answer = await fetch(`${url}/_sandbox/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"url":null}',
        signal: AbortSignal.timeout(5_000),
      });
      if (answer.status !== 200) throw new Error(`turning the rail's callbacks off answered ${answer.status}: ${await answer.text()}`);
    }
    log("international: the rails' callbacks are OFF (BENCH_INTL_CALLBACKS=0, a diagnostic): the worker records each leg from the rail's answer only");
  }
  const ids: string[] = [];
  let index = 0;
  return {
    poboUserId,
    sourceAmountNgn,
    fundedNgn,
    ids,
    run: (workers) => pipelineRun(input, pg, { poboUserId, workers, tag: `${tag}-r${++index}`, allIds: ids }),
  };
}

export async function runInternationalBench(input: InternationalBenchInput): Promise<InternationalBenchResult> {
  const { log } = input;
  const pg = new CountedClient({ connectionString: input.databaseUrl });
  await pg.connect();
  try {
    const pipelines = await preparePipelines(input, pg, input.workerCounts.length + 1);
    const pipeline: PipelineRun[] = [];
    for (const workers of input.workerCounts) pipeline.push(await pipelines.run(workers));
    const burst = await burstRun(input, pg, pipelines.poboUserId, pipelines.ids);
    const allIds = pipelines.ids;
    const { sourceAmountNgn, fundedNgn } = pipelines;

    // GET one international payment intent: reference / API, alternating.
    const ids = shuffle([...allIds]);
    const bytes = await checkEquivalence(input, ids[0]);
    let next = 0;
    const getOne = (): autocannon.Request[] => [
      { method: 'GET', setupRequest: (request) => ({ ...request, path: `${INTERNATIONAL_INTENTS_PATH}/${ids[next++ % ids.length]}` }) },
    ];
    log('');
    for (const server of READ_SERVERS) await input.warm(server, getOne(), input.warmUpS);
    const runs = new Map<ReadServer, MeasuredRun[]>(READ_SERVERS.map((server) => [server, []]));
    for (let round = 1; round <= input.rounds; round++) {
      for (const server of READ_SERVERS) runs.get(server)!.push(await input.measure(server, round, getOne()));
    }
    const figuresOf = (server: ReadServer) => {
      const of = runs.get(server)!;
      return { rps: mean(of.map((r) => r.rps)), cpuUsPerRequest: sum(of.map((r) => r.cpuUsPerRequest * r.requests)) / sum(of.map((r) => r.requests)) };
    };
    const servers = Object.fromEntries(READ_SERVERS.map((server) => [server, figuresOf(server)])) as Record<
      ReadServer,
      { rps: number; cpuUsPerRequest: number }
    >;
    const cpuVsPlain = servers.reference.cpuUsPerRequest / servers.api.cpuUsPerRequest;
    const cpuVsContract = servers.contract.cpuUsPerRequest / servers.api.cpuUsPerRequest;
    const apiNon2xx = sum(runs.get('api')!.map((r) => r.non2xx + r.errors));
    const cpuText = (server: ReadServer) => `${servers[server].cpuUsPerRequest.toFixed(0)} µs`;
    log(
      `  GET one international intent, CPU per request: plain ${cpuText('reference')}, contract ${cpuText('contract')}, API ${cpuText('api')}: ` +
        `${cpuVsPlain.toFixed(2)}× the plain floor, ${cpuVsContract.toFixed(2)}× the contract's`,
    );

    // With repeated counts (BENCH_INTL_WORKERS=1,2,1,2), the median run of each.
    const byWorkers = (n: number) => {
      const same = pipeline.filter((run) => run.workers === n).sort((a, b) => a.intentsPerS - b.intentsPerS);
      return same.length === 0 ? undefined : { intentsPerS: median(same.map((run) => run.intentsPerS)), runs: same };
    };
    const one = byWorkers(1);
    const two = byWorkers(2);
    const settledAll = (run: PipelineRun) => (run.byStatus.settled ?? 0) === run.intents;
    const targets: Target[] = [
      {
        name: 'GET one international intent: plain reference CPU ÷ API CPU',
        target: `≥ ${INTERNATIONAL_TARGETS.getOneVsPlain.toFixed(2)}×`,
        measured: `${cpuVsPlain.toFixed(2)}× (${cpuText('reference')} vs ${cpuText('api')} per request), ${apiNon2xx} non-2xx`,
        pass: cpuVsPlain >= INTERNATIONAL_TARGETS.getOneVsPlain && apiNon2xx === 0,
      },
      {
        name: 'GET one international intent: contract reference CPU ÷ API CPU',
        target: `≥ ${INTERNATIONAL_TARGETS.getOneVsContract.toFixed(2)}×`,
        measured: `${cpuVsContract.toFixed(2)}× (${cpuText('contract')} vs ${cpuText('api')} per request)`,
        pass: cpuVsContract >= INTERNATIONAL_TARGETS.getOneVsContract && apiNon2xx === 0,
      },
      ...pipeline.map((run) => ({
        name: `Pipeline, ${run.workers} worker${run.workers > 1 ? 's' : ''}: all settled, ledger:verify ok`,
        target: 'all settled, ok',
        measured:
          `${run.intentsPerS.toFixed(1)} intents/s (${run.intents} in ${(run.ms / 1000).toFixed(2)} s), ${JSON.stringify(run.byStatus)}, ` +
          `ledger ok ${run.ledgerVerify.ok}, ${run.workerLog.jobFailed} failed jobs`,
        pass: settledAll(run) && run.ledgerVerify.ok && run.workerExits.every((exit) => exit === undefined),
      })),
      {
        name: `Burst of ${burst.intents} intents, each rail step ${burst.stepMs / 1000} s: last settled after the last creation`,
        target: `≤ ${BURST_DEADLINE_MS / 1000} s, all settled`,
        measured: `${(burst.lastCreationToLastSettledMs / 1000).toFixed(1)} s (created in ${(burst.creationMs / 1000).toFixed(1)} s), ${JSON.stringify(burst.byStatus)}`,
        pass: burst.lastCreationToLastSettledMs <= BURST_DEADLINE_MS && (burst.byStatus.settled ?? 0) === burst.intents,
      },
      ...pipeline.map((run) => ({
        name: `Pipeline, ${run.workers} worker${run.workers > 1 ? 's' : ''}: commits per settled intent`,
        target: `≤ ${INTERNATIONAL_TARGETS.commitsPerIntent}`,
        measured: `${formatRoundTrips(run.roundTripsPerIntent)}; CPU ms per intent: ${cpuPerIntentText(run)}`,
        pass: run.roundTripsPerIntent.commits <= INTERNATIONAL_TARGETS.commitsPerIntent,
      })),
      ...(one && two
        ? [
            {
              name: 'Pipeline: two workers ÷ one worker (intents/s)',
              target: 'reported, with the cores used',
              measured:
                `${(two.intentsPerS / one.intentsPerS).toFixed(2)}× (${two.intentsPerS.toFixed(1)} vs ${one.intentsPerS.toFixed(1)} intents/s` +
                `${one.runs.length > 1 || two.runs.length > 1 ? `, medians of ${two.runs.length} and ${one.runs.length} runs` : ''}); ` +
                `cores: workers ${coresText(two.runs[0])} vs ${coresText(one.runs[0])}`,
              pass: null,
            },
          ]
        : []),
    ];
    return {
      amountUsd: AMOUNT_USD,
      sourceAmountNgn,
      fundedNgn,
      pipeline,
      burst,
      getOne: {
        ids: ids.length,
        bytes,
        servers,
        apiNon2xx,
        cpuVsPlain,
        cpuVsContract,
      },
      targets,
    };
  } finally {
    await input.stopWorkers().catch(() => undefined);
    await pg.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Pipeline
// ---------------------------------------------------------------------------------------------

async function pipelineRun(
  input: PipelineInput,
  pg: Client,
  { poboUserId, workers: count, tag, allIds }: { poboUserId: string; workers: number; tag: string; allIds: string[] },
): Promise<PipelineRun> {
  const { log } = input;
  log('');
  // 1. The intents, with no worker running: each waits in `pending`, its first job in the outbox.
  const creation = await createIntents(input, poboUserId, tag);
  const ids = creation.ids;
  allIds.push(...ids);
  log(
    `  pipeline, ${count} worker${count > 1 ? 's' : ''}: ${ids.length} intents created in ${(creation.ms / 1000).toFixed(1)} s ` +
      `(${(ids.length / (creation.ms / 1000)).toFixed(0)}/s, quote + intent, ${input.creationConcurrency} at a time), workers stopped`,
  );
  const outboxRows = Number((await pg.query<{ n: string }>(`SELECT count(*) AS n FROM outbox`)).rows[0].n);
  const eventsBefore = await railEventCounts(pg);
  const deliveriesBefore = await Promise.all([deliveries(input.bridgeRailUrl), deliveries(input.payoutRailUrl)]);
  const createsBefore = await Promise.all([railCreates(input.bridgeRailUrl), railCreates(input.payoutRailUrl)]);

  // 2. Hold every outbox row: relays claim with SKIP LOCKED, so the workers boot and idle.
  const gate = new CountedClient({ connectionString: input.databaseUrl });
  await gate.connect();
  let gateOpen = false;
  try {
    await gate.query('BEGIN');
    const held = (await gate.query('SELECT id FROM outbox FOR UPDATE')).rowCount ?? 0;
    const outboxSeqBefore = await outboxSequence(pg);
    // Round trips count from here: the workers from their start (a few dozen statements of boot
    // and periodic jobs, against thousands for the run), not to hold the gate 10 s longer.
    const tripsBefore = await roundTripSnapshot(pg, [input.apiOpsUrl]);
    const workers = await input.startWorkers(count);
    await sleep(IDLE_BEFORE_GATE_MS);
    input.checkAborted();
    const movedBeforeGate = Number(
      (await pg.query<{ n: string }>(`SELECT count(*) AS n FROM international_payment_intents WHERE id = ANY($1) AND status <> 'pending'`, [ids])).rows[0].n,
    );
    if (movedBeforeGate > 0) log(`  warning: ${movedBeforeGate} intents left pending before the gate opened (the periodic resume job?): the clock starts late`);
    const countsBefore = workers.map((w) => ({ jobFailed: w.count(WORKER_LOG_COUNTS.jobFailed), jobStalled: w.count(WORKER_LOG_COUNTS.jobStalled) }));

    // 3. Open the gate: the NOTIFY is delivered at commit, when the locks go.
    const pids = [...workers.map((w) => w.pid), input.pids.api, input.pids.bridgeRail, input.pids.payoutRail];
    const servicePids = await servicePidsOf(pg);
    const statsBefore = await postgresStats(pg);
    const cpuBefore = {
      procs: pids.map((pid) => input.processCpuS(pid)),
      services: serviceCpuS(servicePids, input.clockTicks),
      self: process.cpuUsage(),
      machine: input.machineBusyS(),
    };
    await gate.query(`NOTIFY ${OUTBOX_CHANNEL}`);
    const openedAt = Date.now();
    await gate.query('COMMIT');
    gateOpen = true;
    log(
      `  gate opened: ${held} outbox rows released (${outboxRows} before), ${count} worker${count > 1 ? 's' : ''} (pids ${workers.map((w) => w.pid).join(', ')}) idle for ${IDLE_BEFORE_GATE_MS / 1000} s`,
    );

    // 4. Until every intent is final (or a worker died, or the time ran out).
    let byStatus: Record<string, number> = {};
    const sessions = { samples: 0, busy: 0, waits: new Map<string, number>(), lockWaitsBy: new Map<string, number>() };
    let lastProgress = '';
    let lastLog = Date.now();
    for (;;) {
      input.checkAborted();
      byStatus = await statusCounts(pg, ids);
      await sampleSessions(pg, sessions);
      const final = (byStatus.settled ?? 0) + (byStatus.rejected ?? 0);
      if (final === ids.length) break;
      const dead = workers.map((w) => w.exited()).filter(Boolean);
      if (dead.length > 0) {
        log(`  a worker exited (${dead.join(', ')}):\n${workers.map((w) => w.outputTail()).join('\n')}`);
        break;
      }
      if (Date.now() - openedAt > PIPELINE_TIMEOUT_MS) {
        log(`  warning: not all intents final after ${PIPELINE_TIMEOUT_MS / 1000} s: ${JSON.stringify(byStatus)}`);
        break;
      }
      if (Date.now() - lastLog > 5_000) {
        const progress = JSON.stringify(byStatus);
        if (progress !== lastProgress) log(`    ${((Date.now() - openedAt) / 1000).toFixed(0)} s: ${progress}`);
        lastProgress = progress;
        lastLog = Date.now();
      }
      await sleep(POLL_MS);
    }
    const endedAt = Date.now();
    // Backends opened during the run count from zero (all their CPU is the run's); those closed during it are lost.
    const servicePidsAfter = await servicePidsOf(pg);
    const cpuAfter = {
      procs: pids.map((pid) => input.processCpuS(pid)),
      services: serviceCpuS({ postgres: [...new Set([...servicePids.postgres, ...servicePidsAfter.postgres])], redis: servicePids.redis }, input.clockTicks),
      self: process.cpuUsage(cpuBefore.self),
      machine: input.machineBusyS(),
    };
    const workerExits = workers.map((w) => w.exited());
    const workerLog = {
      jobFailed: sum(workers.map((w, i) => w.count(WORKER_LOG_COUNTS.jobFailed) - countsBefore[i].jobFailed)),
      jobStalled: sum(workers.map((w, i) => w.count(WORKER_LOG_COUNTS.jobStalled) - countsBefore[i].jobStalled)),
      lastFailure: workers
        .map((w, i) => (w.count(WORKER_LOG_COUNTS.jobFailed) > countsBefore[i].jobFailed ? w.lastCounted(WORKER_LOG_COUNTS.jobFailed) : undefined))
        .find(Boolean),
    };

    // 5. Timings from the database.
    const { rows } = await pg.query<{ last_settled: Date | null; first_pickup: Date | null; p50: number | null; p99: number | null; max: number | null }>(
      `WITH picked AS (
         SELECT intent_id, min(created_at) AS at FROM international_payment_intent_status_history
          WHERE intent_id = ANY($1) AND to_status = 'processing' GROUP BY intent_id
       ), spans AS (
         SELECT i.settled_at, extract(epoch FROM i.settled_at - p.at) * 1000 AS ms
           FROM international_payment_intents i JOIN picked p ON p.intent_id = i.id
          WHERE i.id = ANY($1) AND i.status = 'settled'
       )
       SELECT (SELECT max(settled_at) FROM spans) AS last_settled,
              (SELECT min(at) FROM picked) AS first_pickup,
              (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM spans) AS p50,
              (SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) FROM spans) AS p99,
              (SELECT max(ms) FROM spans) AS max`,
      [ids],
    );
    const timing = rows[0];
    const lastSettledAt = timing.last_settled?.getTime() ?? endedAt;
    const firstPickupAt = timing.first_pickup?.getTime() ?? openedAt;
    const ms = lastSettledAt - openedAt;
    const wallS = (endedAt - openedAt) / 1000;
    const cpuS = cpuAfter.procs.map((after, i) => after - cpuBefore.procs[i]);
    const selfS = (cpuAfter.self.user + cpuAfter.self.system) / 1e6;
    const machineS = cpuAfter.machine - cpuBefore.machine;
    const workerS = cpuS.slice(0, count);
    const [apiS, bridgeS, payoutS] = cpuS.slice(count);
    const postgresS = cpuBetween(cpuBefore.services.postgres, cpuAfter.services.postgres);
    const redisS = cpuBetween(cpuBefore.services.redis, cpuAfter.services.redis);
    const otherS = Math.max(0, machineS - sum(cpuS) - selfS - postgresS - redisS);
    const intentsPerS = ids.length / (ms / 1000);

    // 6. Stop the workers (their statements read first); let the rails' callbacks land; check the ledger.
    const tripsOfWorkers = await roundTripSnapshot(
      pg,
      workers.map((w) => w.opsUrl),
      tripsBefore,
      { commits: false },
    );
    await input.stopWorkers();
    const events = await untilCallbacksLanded(input, pg, eventsBefore, ids.length);
    const outboxSeqAfter = await outboxSequence(pg);
    // After the snapshot's wait, PostgreSQL's counters hold everything the run did.
    const roundTripsPerIntent = roundTripsPer(tripsBefore, await roundTripSnapshot(pg, [input.apiOpsUrl], tripsOfWorkers), ids.length);
    const statsAfter = await postgresStats(pg);
    const deliveriesAfter = await Promise.all([deliveries(input.bridgeRailUrl), deliveries(input.payoutRailUrl)]);
    const createsAfter = await Promise.all([railCreates(input.bridgeRailUrl), railCreates(input.payoutRailUrl)]);
    const verified = await input.verifyLedger();
    const ledgerOk = verified.code === 0 && (verified.report as { ok?: unknown } | null)?.ok === true;

    const run: PipelineRun = {
      workers: count,
      intents: ids.length,
      creation: { ms: creation.ms, perS: ids.length / (creation.ms / 1000), concurrency: input.creationConcurrency },
      ms,
      intentsPerS,
      firstPickupToLastSettledMs: lastSettledAt - firstPickupAt,
      gateToFirstPickupMs: firstPickupAt - openedAt,
      movedBeforeGate,
      byStatus,
      perIntentMs: { p50: round(timing.p50 ?? NaN), p99: round(timing.p99 ?? NaN), max: round(timing.max ?? NaN) },
      callbackFollowUps: outboxSeqAfter - outboxSeqBefore,
      railEvents: {
        bridge_rail: (events.bridge_rail ?? 0) - (eventsBefore.bridge_rail ?? 0),
        payout_rail: (events.payout_rail ?? 0) - (eventsBefore.payout_rail ?? 0),
      },
      callbackDeliveries: { bridge: diffCounts(deliveriesAfter[0], deliveriesBefore[0]), payout: diffCounts(deliveriesAfter[1], deliveriesBefore[1]) },
      railCreates: { bridge: createsBetween(createsBefore[0], createsAfter[0]), payout: createsBetween(createsBefore[1], createsAfter[1]) },
      workerLog,
      cores: {
        workers: workerS.map((s) => s / wallS),
        api: apiS / wallS,
        bridgeRail: bridgeS / wallS,
        payoutRail: payoutS / wallS,
        bench: selfS / wallS,
        postgres: postgresS / wallS,
        redis: redisS / wallS,
        other: otherS / wallS,
        machine: machineS / wallS,
      },
      cpuMsPerIntent: {
        workers: (sum(workerS) * 1000) / ids.length,
        api: (apiS * 1000) / ids.length,
        rails: ((bridgeS + payoutS) * 1000) / ids.length,
        postgres: (postgresS * 1000) / ids.length,
        redis: (redisS * 1000) / ids.length,
      },
      postgresSessions: {
        samples: sessions.samples,
        meanBusy: Math.round((sessions.busy / Math.max(1, sessions.samples)) * 10) / 10,
        waits: Object.fromEntries(
          [...sessions.waits.entries()]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 8)
            .map(([wait, n]) => [wait, Math.round((n / Math.max(1, sessions.busy)) * 1000) / 1000]),
        ),
        lockWaitsBy: Object.fromEntries(
          [...sessions.lockWaitsBy.entries()]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 6)
            .map(([query, n]) => [query, Math.round((n / Math.max(1, sessions.samples)) * 10) / 10]),
        ),
      },
      postgresPerIntent: perIntent(statsBefore, statsAfter, ids.length),
      roundTripsPerIntent,
      ledgerVerify: { exitCode: verified.code, report: verified.report, ok: ledgerOk },
      workerExits,
    };
    log(
      `  pipeline, ${count} worker${count > 1 ? 's' : ''}: ${run.intentsPerS.toFixed(1)} intents/s — ${ids.length} in ${(ms / 1000).toFixed(2)} s from the gate to the last settled ` +
        `(first pickup +${run.gateToFirstPickupMs} ms; pickup → last settled ${(run.firstPickupToLastSettledMs / 1000).toFixed(2)} s); ${JSON.stringify(byStatus)}`,
    );
    log(
      `    per intent picked up → settled p50 ${run.perIntentMs.p50} ms, p99 ${run.perIntentMs.p99} ms; ` +
        `cores: worker${count > 1 ? 's' : ''} ${run.cores.workers.map((c) => c.toFixed(2)).join(' + ')}, API ${run.cores.api.toFixed(2)}, ` +
        `rails ${(run.cores.bridgeRail + run.cores.payoutRail).toFixed(2)}, PostgreSQL ${run.cores.postgres.toFixed(2)}, Redis ${run.cores.redis.toFixed(2)}, ` +
        `bench ${run.cores.bench.toFixed(2)}, other ${run.cores.other.toFixed(2)}; machine ${run.cores.machine.toFixed(2)} of 2`,
    );
    log(
      `    CPU ms/intent: workers ${run.cpuMsPerIntent.workers.toFixed(2)}, API ${run.cpuMsPerIntent.api.toFixed(2)}, rails ${run.cpuMsPerIntent.rails.toFixed(2)}, ` +
        `PostgreSQL ${run.cpuMsPerIntent.postgres.toFixed(2)}, Redis ${run.cpuMsPerIntent.redis.toFixed(2)}; per intent ${formatRoundTrips(run.roundTripsPerIntent)}, PostgreSQL ${JSON.stringify(run.postgresPerIntent)}`,
    );
    log(`    PostgreSQL sessions busy: mean ${run.postgresSessions.meanBusy}, waiting on ${JSON.stringify(run.postgresSessions.waits)}`);
    log(`    sessions waiting on a lock, mean per sample, by statement: ${JSON.stringify(run.postgresSessions.lockWaitsBy)}`);
    log(
      `    ` +
        `callback follow-up jobs ${run.callbackFollowUps}; rail events ${JSON.stringify(run.railEvents)}; deliveries bridge ${JSON.stringify(run.callbackDeliveries.bridge)} ` +
        `payout ${JSON.stringify(run.callbackDeliveries.payout)}; create requests / legs created: bridge ${run.railCreates.bridge.createRequests} / ${run.railCreates.bridge.created}, ` +
        `payout ${run.railCreates.payout.createRequests} / ${run.railCreates.payout.created}; worker log: ${run.workerLog.jobFailed} failed, ${run.workerLog.jobStalled} stalled`,
    );
    if (run.workerLog.lastFailure) log(`    last failed job: ${run.workerLog.lastFailure}`);
    log(`    ledger:verify exit ${verified.code} ${JSON.stringify(verified.report)}`);
    return run;
  } finally {
    if (!gateOpen) await gate.query('ROLLBACK').catch(() => undefined);
    await gate.end().catch(() => undefined);
  }
}

interface QuoteAnswer {
  response: { quoteId: string; options: { quoteOptionId: string; sourceAmount: number }[] };
}

/** `input.intents` quotes and intents through the API, `creationConcurrency` at a time; throws on any refusal. */
/**
 * Both rails' steps at 2 s, one worker running, 1,000 intents created 16 at a time; timed from the
 * last creation's answer to the last `settled_at`. The steps go back to 0 afterwards.
 */
async function burstRun(input: PipelineInput, pg: Client, poboUserId: string, allIds: string[]): Promise<BurstRun> {
  const { log } = input;
  log('');
  await setSettlementStep(input, BURST_STEP_MS);
  const eventsBefore = await railEventCounts(pg);
  try {
    await input.startWorkers(1);
    const creation = await createIntents(input, poboUserId, `burst-${randomBytes(3).toString('hex')}`);
    const lastCreatedAt = Date.now();
    allIds.push(...creation.ids);
    let byStatus: Record<string, number> = {};
    while (Date.now() - lastCreatedAt < 3 * BURST_DEADLINE_MS) {
      input.checkAborted();
      byStatus = await statusCounts(pg, creation.ids);
      if ((byStatus.settled ?? 0) + (byStatus.rejected ?? 0) === creation.ids.length) break;
      await sleep(POLL_MS);
    }
    const { rows } = await pg.query<{ last: Date | null }>(`SELECT max(settled_at) AS last FROM international_payment_intents WHERE id = ANY($1)`, [
      creation.ids,
    ]);
    const lastSettledAt = rows[0].last?.getTime() ?? Date.now();
    const burst = {
      intents: creation.ids.length,
      stepMs: BURST_STEP_MS,
      creationMs: creation.ms,
      lastCreationToLastSettledMs: lastSettledAt - lastCreatedAt,
      byStatus,
    };
    log(
      `  burst: ${burst.intents} intents created in ${(creation.ms / 1000).toFixed(1)} s with a worker running, each rail step ${BURST_STEP_MS / 1000} s; ` +
        `last settled ${(burst.lastCreationToLastSettledMs / 1000).toFixed(1)} s after the last creation; ${JSON.stringify(byStatus)}`,
    );
    return burst;
  } finally {
    await input.stopWorkers();
    await setSettlementStep(input, SETTLEMENT_STEP_MS);
    // The rails' callbacks of the last legs are still landing on the API: the next measurement is the API's.
    await untilCallbacksLanded(input, pg, eventsBefore, input.intents);
  }
}

/**
 * Waits (up to 30 s, then warns) until the API has recorded each rail's callback for `intents`
 * more intents than `before` held (none when the callbacks are off); the rail events then.
 */
async function untilCallbacksLanded(input: PipelineInput, pg: Client, before: Record<string, number>, intents: number): Promise<Record<string, number>> {
  const perRail = input.callbacks ? intents : 0;
  const expected = { bridge_rail: (before.bridge_rail ?? 0) + perRail, payout_rail: (before.payout_rail ?? 0) + perRail };
  const until = Date.now() + CALLBACKS_TIMEOUT_MS;
  let events = await railEventCounts(pg);
  while ((events.bridge_rail ?? 0) < expected.bridge_rail || (events.payout_rail ?? 0) < expected.payout_rail) {
    if (Date.now() > until) {
      input.log(`  warning: rail events recorded ${JSON.stringify(events)}, expected ${JSON.stringify(expected)} after ${CALLBACKS_TIMEOUT_MS / 1000} s`);
      break;
    }
    await sleep(100);
    events = await railEventCounts(pg);
  }
  return events;
}

async function setSettlementStep(input: PipelineInput, ms: number): Promise<void> {
  for (const url of [input.bridgeRailUrl, input.payoutRailUrl]) {
    const answer = await fetch(`${url}/_sandbox/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settlement_step_ms: ms }),
      signal: AbortSignal.timeout(5_000),
    });
    if (answer.status !== 200) throw new Error(`setting the rail's settlement step answered ${answer.status}: ${await answer.text()}`);
  }
}

async function createIntents(input: PipelineInput, poboUserId: string, tag: string): Promise<{ ids: string[]; ms: number }> {
  const ids: string[] = new Array<string>(input.intents);
  let next = 0;
  const started = Date.now();
  const api = apiClient(input.apiUrl, input.apiKey);
  const one = async (n: number) => {
    const quote = await api.post(QUOTES_PATH, JSON.stringify({ poboUserId, destinationCountry: 'US', currency: 'USD', amount: AMOUNT_USD }));
    if (quote.status !== 201) throw new Error(`creating quote ${n} answered ${quote.status}: ${quote.text}`);
    const { quoteId, options } = (quote.json as QuoteAnswer).response;
    const intent = await api.post(
      INTERNATIONAL_INTENTS_PATH,
      JSON.stringify({
        quoteId,
        quoteOptionId: options[0].quoteOptionId,
        recipientFullName: 'Jane Doe',
        bankCodeType: 'swift',
        bankCode: 'CHASUS33',
        accountNumber: '000123456789',
        purposeOfTransfer: 'Information Service Charges',
        recipientEmail: 'jane@example.com',
        paymentReference: `bench-ipi-${tag}-${n}`,
      }),
      `bench-ipi-${tag}-${n}`,
    );
    const id = (intent.json as { response?: { intentId?: string } } | undefined)?.response?.intentId;
    if (intent.status !== 201 || !id) throw new Error(`creating intent ${n} answered ${intent.status}: ${intent.text}`);
    ids[n] = id;
  };
  await Promise.all(
    Array.from({ length: input.creationConcurrency }, async () => {
      while (next < input.intents) {
        input.checkAborted();
        await one(next++);
      }
    }),
  );
  return { ids, ms: Date.now() - started };
}

async function statusCounts(pg: Client, ids: string[]): Promise<Record<string, number>> {
  const { rows } = await pg.query<{ status: string; n: string }>(
    `SELECT status, count(*) AS n FROM international_payment_intents WHERE id = ANY($1) GROUP BY status ORDER BY status`,
    [ids],
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

async function railEventCounts(pg: Client): Promise<Record<string, number>> {
  const { rows } = await pg.query<{ rail: string; n: string }>(`SELECT rail, count(*) AS n FROM rail_events GROUP BY rail`);
  return Object.fromEntries(rows.map((row) => [row.rail, Number(row.n)]));
}

/** The outbox's id sequence: how many rows were ever written (rolled-back inserts included). */
async function outboxSequence(pg: Client): Promise<number> {
  const { rows } = await pg.query<{ n: string }>(`SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS n FROM outbox_id_seq`);
  return Number(rows[0].n);
}

interface RailCreates {
  createRequests: number;
  created: number;
}

/** A rail's create requests and creations so far, over every reference. */
async function railCreates(railUrl: string): Promise<RailCreates> {
  const response = await fetch(`${railUrl}/_sandbox/calls`, { signal: AbortSignal.timeout(10_000) });
  return (await response.json()) as RailCreates;
}

function createsBetween(before: RailCreates, after: RailCreates): RailCreates {
  return { createRequests: after.createRequests - before.createRequests, created: after.created - before.created };
}

/** A rail's callback deliveries so far, by HTTP status (`null`: not reached). */
async function deliveries(railUrl: string): Promise<Record<string, number>> {
  const response = await fetch(`${railUrl}/_sandbox/webhook`, { signal: AbortSignal.timeout(10_000) });
  const state = (await response.json()) as { deliveries?: { status: number | null }[] };
  const byStatus: Record<string, number> = {};
  for (const delivery of state.deliveries ?? []) byStatus[String(delivery.status)] = (byStatus[String(delivery.status)] ?? 0) + 1;
  return byStatus;
}

/** One look at what the bench database's sessions (but this one) are doing. */
async function sampleSessions(
  pg: Client,
  into: { samples: number; busy: number; waits: Map<string, number>; lockWaitsBy: Map<string, number> },
): Promise<void> {
  const { rows } = await pg.query<{ state: string; wait: string | null; query: string }>(
    `SELECT state, wait_event_type || ':' || wait_event AS wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state IN ('active', 'idle in transaction')`,
  );
  into.samples++;
  into.busy += rows.length;
  for (const row of rows) {
    const key = row.wait ?? 'CPU';
    into.waits.set(key, (into.waits.get(key) ?? 0) + 1);
    if (key.startsWith('Lock:')) into.lockWaitsBy.set(row.query, (into.lockWaitsBy.get(row.query) ?? 0) + 1);
  }
}

interface PostgresStats {
  rollbacks: number;
  inserted: number;
  updated: number;
  deleted: number;
  seqScans: Record<string, number>;
}

async function postgresStats(pg: Client): Promise<PostgresStats> {
  const database = await pg.query<{ xact_rollback: string; tup_inserted: string; tup_updated: string; tup_deleted: string }>(
    `SELECT xact_rollback, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = current_database()`,
  );
  const tables = await pg.query<{ relname: string; seq_scan: string }>(`SELECT relname, seq_scan FROM pg_stat_user_tables`);
  const row = database.rows[0];
  return {
    rollbacks: Number(row.xact_rollback),
    inserted: Number(row.tup_inserted),
    updated: Number(row.tup_updated),
    deleted: Number(row.tup_deleted),
    seqScans: Object.fromEntries(tables.rows.map((t) => [t.relname, Number(t.seq_scan)])),
  };
}

function perIntent(before: PostgresStats, after: PostgresStats, intents: number): PipelineRun['postgresPerIntent'] {
  const per = (a: number, b: number) => Math.round(((a - b) / intents) * 100) / 100;
  const seqScans: Record<string, number> = {};
  for (const [table, n] of Object.entries(after.seqScans))
    if (n - (before.seqScans[table] ?? 0) >= intents / 10) seqScans[table] = per(n, before.seqScans[table] ?? 0);
  return {
    rollbacks: per(after.rollbacks, before.rollbacks),
    rowsInserted: per(after.inserted, before.inserted),
    rowsUpdated: per(after.updated, before.updated),
    rowsDeleted: per(after.deleted, before.deleted),
    seqScans,
  };
}

/** The CPU per settled intent of each process, summed as the pipeline's cost. */
export function cpuPerIntentText(run: PipelineRun): string {
  const { workers, api, postgres } = run.cpuMsPerIntent;
  return `${(workers + api + postgres).toFixed(2)} (workers ${workers.toFixed(2)}, API ${api.toFixed(2)}, PostgreSQL ${postgres.toFixed(2)})`;
}

function coresText(run: PipelineRun): string {
  return `${run.cores.workers.map((c) => c.toFixed(2)).join(' + ')} (machine ${run.cores.machine.toFixed(2)} of 2, PostgreSQL ${run.cores.postgres.toFixed(2)})`;
}

/** PostgreSQL's processes serving the bench database (and the server's own: WAL writer, checkpointer…), and Redis's. */
async function servicePidsOf(pg: Client): Promise<{ postgres: number[]; redis: number[] }> {
  const { rows } = await pg.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() OR backend_type <> 'client backend'`);
  const redis: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'redis-server') redis.push(Number(entry));
    } catch {
      // gone
    }
  }
  return { postgres: rows.map((row) => row.pid), redis };
}

type ServiceCpu = { postgres: Map<number, number>; redis: Map<number, number> };

/** CPU seconds so far of each of those processes that still runs. */
function serviceCpuS(pids: { postgres: number[]; redis: number[] }, clockTicks: number): ServiceCpu {
  const cpu = (list: number[]) => {
    const byPid = new Map<number, number>();
    for (const pid of list) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        byPid.set(pid, (Number(fields[11]) + Number(fields[12])) / clockTicks);
      } catch {
        // gone
      }
    }
    return byPid;
  };
  return { postgres: cpu(pids.postgres), redis: cpu(pids.redis) };
}

/** CPU seconds between two readings, over the processes still running at the second (those started in between count from zero). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0);
  return total;
}

function diffCounts(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const diff: Record<string, number> = {};
  for (const [key, n] of Object.entries(after)) if (n !== (before[key] ?? 0)) diff[key] = n - (before[key] ?? 0);
  return diff;
}

// ---------------------------------------------------------------------------------------------
// GET one: the reference must run the API's statement and answer the same JSON.
// ---------------------------------------------------------------------------------------------

async function checkEquivalence(input: InternationalBenchInput, id: string): Promise<number> {
  // findOwned reads through the pool alone: the repository's DataSource is not needed here.
  const sent = await statementSent((pool) => new InternationalIntentsRepository(pool, undefined as never).findOwned(input.merchantId, id));
  if (!isDeepStrictEqual(sent, intentFindOwnedQuery(input.merchantId, id))) {
    throw new Error('the reference server no longer sends the statement InternationalIntentsRepository.findOwned sends');
  }
  const get = async (url: string, headers: Record<string, string>) => {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) };
  };
  const [fromApi, ...fromRefs] = await Promise.all([
    get(`${input.apiUrl}${INTERNATIONAL_INTENTS_PATH}/${id}`, { 'x-api-key': input.apiKey }),
    ...Object.values(input.references).map((reference) => get(`${reference.url}${INTERNATIONAL_INTENTS_PATH}/${id}`, reference.headers)),
  ]);
  for (const fromRef of fromRefs) checkSame(fromApi, fromRef);
  input.log(
    `  checked: same SQL statement and identical JSON for GET one international intent (${fromApi.bytes} bytes, status ${(fromApi.body as { response: { status: string } }).response.status})`,
  );
  return fromApi.bytes;
}

function checkSame(fromApi: { status: number; body: unknown }, fromRef: { status: number; body: unknown }): void {
  if (fromApi.status !== 200 || fromRef.status !== 200) {
    throw new Error(
      `GET one international intent answered ${fromApi.status} (API) and ${fromRef.status} (reference): ${JSON.stringify(fromApi.body)} ${JSON.stringify(fromRef.body)}`,
    );
  }
  if (!isDeepStrictEqual(fromApi.body, fromRef.body)) {
    throw new Error(`the API and the reference answer different JSON for an intent:\n${JSON.stringify(fromApi.body)}\n${JSON.stringify(fromRef.body)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------------------------

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(value: number): number {
  return Math.round(value);
}

/**
 * What pipeline runs need of the deployment. Workers are started as production starts them, with
 * `workerEnv` on top (the webhooks part's receivers are on loopback, which only development allows).
 */
export function pipelineInput(d: Deployment, workerEnv: Record<string, string> = {}): PipelineInput {
  let workers: Started[] = [];
  return {
    apiUrl: d.servers.api.url,
    apiKey: d.apiKey,
    merchantId: d.merchantId,
    databaseUrl: d.databaseUrl,
    apiOpsUrl: d.servers.api.opsUrl!,
    pids: { api: d.servers.api.pid, bridgeRail: d.bridgeRail.pid, payoutRail: d.payoutRail.pid },
    bridgeRailUrl: d.bridgeRail.url,
    payoutRailUrl: d.payoutRail.url,
    intents: INTL_INTENTS,
    creationConcurrency: INTL_CREATION_CONCURRENCY,
    callbacks: INTL_CALLBACKS,
    startWorkers: async (count) => {
      const spawned = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          d.startWorker(`worker ${i + 1}`, { countStdout: Object.values(WORKER_LOG_COUNTS), exitIsMeasured: true, env: workerEnv }),
        ),
      );
      workers.push(...spawned);
      return spawned.map((w) => ({
        pid: pidOf(w),
        opsUrl: w.opsUrl,
        exited: w.exited,
        outputTail: () => `${w.stdoutTail()}${w.stderrTail()}`,
        count: w.count,
        lastCounted: w.lastCounted,
      }));
    },
    stopWorkers: async () => {
      await Promise.all(workers.map((w) => stopChild(w.child)));
      workers = [];
    },
    verifyLedger: d.verifyLedger,
    processCpuS: (pid) => processTicks(pid) / CLK_TCK,
    machineBusyS: () => machineTicks().busy / CLK_TCK,
    clockTicks: CLK_TCK,
    checkAborted,
    log,
  };
}

/** The settlement pipeline with one then two workers, then GET one against the reference. */
export const runInternationalPart: BenchPart = async (d) => {
  log('');
  log(
    `international: ${INTL_INTENTS} intents per pipeline run, worker processes per run ${INTL_WORKERS.join(', ')}; ` +
      `worker node flags ${d.workerNodeArgs.length > 0 ? d.workerNodeArgs.join(' ') : 'none'}, worker DB pool ${WORKER_DB_POOL_SIZE}; sandbox settlement step ${SETTLEMENT_STEP_MS} ms`,
  );
  const international = await runInternationalBench({
    ...pipelineInput(d),
    references: { reference: d.servers.reference, contract: d.servers.contract },
    workerCounts: INTL_WORKERS,
    rounds: ROUNDS,
    warmUpS: WARMUP_S,
    measure: (server, round, requests) => d.measure('intl-get-one', server, round, requests),
    warm: (server, requests, seconds) => d.warm(`warm-up ${server} GET one international intent`, server, requests, { durationS: seconds }),
  });
  log(
    `(international targets: GET one's CPU ≥ ${INTERNATIONAL_TARGETS.getOneVsPlain}× the plain reference's and ≥ ${INTERNATIONAL_TARGETS.getOneVsContract}× the contract's; ` +
      `every intent settled and ledger:verify ok after each run; ≤ ${INTERNATIONAL_TARGETS.commitsPerIntent} commits per settled intent)`,
  );
  return { targets: international.targets, results: { international } };
};
