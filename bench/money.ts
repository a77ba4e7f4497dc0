/**
 * Money-movement part of `npm run bench`: payment intents created with a fresh Idempotency-Key
 * each (50 and 10 connections), the replay of a completed key (its CPU cost against GET one
 * business), withdrawals racing over one merchant's balance (then `ledger:verify`), and a mixed
 * run of 60 s watching the API's memory. Uses the API the deployment started and the sandbox bank rail it
 * started as a child process, whose payout callbacks come back to the API.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import type { Client } from 'pg';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { nubanFor } from '../src/common/banking/nuban';
import { numberedPosts, rssMb, sum } from './measure';
import { formatRoundTrips, roundTripSnapshot, roundTripsPer, type RoundTrips } from './round-trips';
import { PAYMENT_INTENTS_PATH } from '../src/modules/payment-intents/payment-intents.routes';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import { WITHDRAWALS_PATH } from '../src/modules/withdrawals/withdrawals.routes';
import type { BenchPart } from './deployment';
import { checkAborted, log } from './processes';
import { CONNECTIONS, DURATION_S, MIXED_S, ROUNDS, WARMUP_S } from './settings';

export const MONEY_TARGETS = {
  /** API CPU µs per create payment intent ÷ the contract reference's (`reference-server.ts`), same run. */
  createVsContract: 1.3,
  /** Replay CPU µs/request ÷ the API's GET one CPU µs/request. */
  replayCpuRatio: 1.0,
  mixedRssGrowthMb: 50,
};

export type MoneyScenario = 'pi-create' | 'pi-create-10c' | 'get-one-by-replay' | 'pi-replay' | 'withdrawal-race' | 'mixed';

/** The part of a Measurement (measure.ts) this module reads. */
export interface MeasuredRun {
  requests: number;
  rps: number;
  durationS: number;
  latencyMs: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  cpuUsPerRequest: number;
}

export interface RunOptions {
  connections: number;
  durationS: number;
  /** The round of an alternated scenario (1 when alone). */
  round?: number;
}

export interface MoneyBenchInput {
  apiUrl: string;
  apiPid: number;
  apiKey: string;
  /** The merchant of that key. */
  merchantId: string;
  databaseUrl: string;
  railUrl: string;
  /** Seeded business ids of the API key's merchant, for the GET one part of the mixed run. */
  businessIds: string[];
  /** The API's GET one business CPU µs/request measured with the reference, earlier. */
  getOneCpuUsPerRequest: number;
  connections: number;
  warmUpS: number;
  durationS: number;
  mixedS: number;
  /** A measured run against the API, or the contract reference (recorded with the others by the deployment). */
  measure: (scenario: MoneyScenario, requests: autocannon.Request[], options: RunOptions, server?: 'api' | 'contract') => Promise<MeasuredRun>;
  /** An unmeasured run (warm-up). */
  warm: (label: string, requests: autocannon.Request[], options: RunOptions, server?: 'api' | 'contract') => Promise<autocannon.Result>;
  rounds: number;
  /** The API's operator port, for its statement count. */
  opsUrl: string;
  /** `ledger:verify` against the bench database: its exit code and its JSON line. */
  verifyLedger: () => Promise<{ code: number | null; report: unknown }>;
  checkAborted: () => void;
  log: (message: string) => void;
}

/** One line of the bench's verdict: what was measured against which target (every part reports these). */
export interface Target {
  name: string;
  target: string;
  measured: string;
  /** `null`: a figure reported, not judged (an absolute time, which measures the machine more than the service). */
  pass: boolean | null;
}

export interface MoneyBenchResult {
  paymentIntentAmountNgn: number;
  create: { at50: RunFigures; at10: RunFigures; contract: RunFigures; cpuVsContract: number };
  /** GET one business measured right before the replay: the replay's yardstick, under the same machine load. */
  getOneByReplay: RunFigures;
  replay: RunFigures & {
    replayedAnswers: number;
    otherAnswers: number;
    /** Replay CPU µs/request ÷ that of the GET one run just before it (the target). */
    cpuRatioToGetOne: number;
    /** The same ÷ the API's GET one CPU µs/request of the main GET one rounds, minutes earlier. */
    cpuRatioToMainGetOne: number;
  };
  withdrawals: {
    amountNgn: number;
    /** `accepted`: with a balance it could not exhaust (sizes the run); `refused`: one second at a zero balance. */
    warmUp: { fundedNgn: number; accepted: Record<string, number>; acceptedPerS: number; drainedNgn: number; refused: Record<string, number> };
    /** Withdrawals the run would complete at the warm-up's rate if all were accepted. */
    expectedRequests: number;
    /** Available before the measured run: 60 % of the expected withdrawals. */
    availableBeforeNgn: number;
    measured: RunFigures;
    created201: number;
    refused409: number;
    refusalCodes: Record<string, number>;
    serverErrors5xx: number;
    otherStatuses: Record<string, number>;
    /** Withdrawals of the measured run by status once the payout callbacks settled (or the wait ran out). */
    byStatusAfter: Record<string, number>;
    settleMs: number;
    balanceAfterNgn: { available: number; reserved: number };
    callbacks: { delivered: number; byStatus: Record<string, number> };
    ledgerVerify: { exitCode: number | null; report: unknown };
  };
  mixed: RunFigures & { durationS: number; rssStartMb: number; rssEndMb: number; rssPeakMb: number; growthMb: number; rssTimeline: [number, number][] };
  /** Statements and commits per operation, everything each caused included (the rail's callbacks, for a withdrawal). */
  roundTrips: { createPaymentIntent: RoundTrips; confirmPaymentIntent: RoundTrips; withdrawal: RoundTrips };
  targets: Target[];
}

interface RunFigures {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

const PI_AMOUNT_NGN = 5000;
const WITHDRAWAL_AMOUNT_NGN = 1;
/** Share of the measured run's expected withdrawals the balance covers: the rest must be refused. */
const WITHDRAWAL_COVER = 0.6;
/** The accepted warm-up's balance: more than it can withdraw in its seconds here. */
const WARM_UP_FUNDS_NGN = 5_000;
const PAYEE_BANK = '044';
const SETTLE_TIMEOUT_MS = 30_000;
const RSS_SAMPLE_MS = 250;
const RSS_TIMELINE_S = 5;

/**
 * Create payment intent requests for autocannon, each with a fresh Idempotency-Key and
 * merchantReference; `run` (a run's tag) and `phase` keep every run's keys apart.
 */
export function createPaymentIntents(apiKey: string, run: string, phase: string): autocannon.Request[] {
  return numberedPosts(apiKey, PAYMENT_INTENTS_PATH, (n) => ({
    headers: { 'idempotency-key': `bench-${run}-${phase}-${n}` },
    body: { merchantReference: `bench-ref-${run}-${phase}-${n}`, amount: PI_AMOUNT_NGN },
  }));
}

/** Seconds each server creates payment intents before the first measured round (see `runMoneyBench`). */
const CREATE_WARM_UP_S = 10;

export async function runMoneyBench(input: MoneyBenchInput): Promise<MoneyBenchResult> {
  const { apiUrl, apiKey, log } = input;
  const pg = new CountedClient({ connectionString: input.databaseUrl });
  await pg.connect();
  try {
    const api = apiClient(apiUrl, apiKey);
    const tag = randomBytes(4).toString('hex');
    const options = { connections: input.connections, durationS: input.durationS };
    const jsonHeaders = { 'x-api-key': apiKey, 'content-type': 'application/json' };

    const createIntents = (phase: string) => createPaymentIntents(apiKey, `${tag}-pi`, phase);

    // 1. Create payment intent against the contract reference (alternating rounds, 50 connections), then at 10.
    // A longer warm-up than the other scenarios': with 3 s, the API's first round measured about 1.35× its
    // second (the contract reference's about 1.1×), still compiling and sizing its heap for this path.
    const createWarmUp = { ...options, durationS: Math.max(input.warmUpS, CREATE_WARM_UP_S) };
    await input.warm('warm-up api create payment intent', createIntents('warm'), createWarmUp);
    await input.warm('warm-up contract create payment intent', createIntents('warm-contract'), createWarmUp, 'contract');
    const apiRuns: MeasuredRun[] = [];
    const contractRuns: MeasuredRun[] = [];
    for (let round = 1; round <= input.rounds; round++) {
      contractRuns.push(await input.measure('pi-create', createIntents(`contract-${round}`), { ...options, round }, 'contract'));
      apiRuns.push(await input.measure('pi-create', createIntents(`c50-${round}`), { ...options, round }));
    }
    const at50 = merged(apiRuns);
    const contract = merged(contractRuns);
    const createVsContract = at50.cpuUsPerRequest / contract.cpuUsPerRequest;
    log(
      `  create payment intent, CPU per request: API ${at50.cpuUsPerRequest.toFixed(0)} µs, contract reference ${contract.cpuUsPerRequest.toFixed(0)} µs: ${createVsContract.toFixed(2)}×`,
    );
    const at10 = await input.measure('pi-create-10c', createIntents('c10'), { ...options, connections: 10 });

    // 2. Replay of a completed key: one intent created with key K, then K and the same body under load.
    const replayKey = `bench-${tag}-replay-key`;
    const replayBody = JSON.stringify({ merchantReference: `bench-pi-${tag}-replayed`, amount: PI_AMOUNT_NGN });
    const first = await api.post(PAYMENT_INTENTS_PATH, replayBody, replayKey);
    if (first.status !== 201) throw new Error(`creating the intent to replay answered ${first.status}: ${first.text}`);
    const again = await api.post(PAYMENT_INTENTS_PATH, replayBody, replayKey);
    if (again.status !== 201 || again.headers.get('idempotent-replayed') !== 'true' || again.text !== first.text) {
      throw new Error(`the replay of a completed key answered ${again.status}, Idempotent-Replayed ${again.headers.get('idempotent-replayed')}: ${again.text}`);
    }
    const replayCounts = { replayed: 0, other: 0 };
    const replays = (count: boolean): autocannon.Request => ({
      method: 'POST',
      path: PAYMENT_INTENTS_PATH,
      headers: { ...jsonHeaders, 'idempotency-key': replayKey },
      body: replayBody,
      onResponse: count
        ? (status, _body, _context, headers) => {
            if (status === 201 && headerValue(headers, 'idempotent-replayed') === 'true') replayCounts.replayed++;
            else replayCounts.other++;
          }
        : undefined,
    });
    let next = 0;
    // A new object per run: autocannon keeps state on the request objects it is given.
    const getOne = (): autocannon.Request => ({
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${input.businessIds[next++ % input.businessIds.length]}` }),
    });
    // The yardstick right before the replay, so that both see the same load on the machine.
    await input.warm('warm-up api replay', [replays(false)], { ...options, durationS: input.warmUpS });
    const getOneByReplay = await input.measure('get-one-by-replay', [getOne()], options);
    const replay = await input.measure('pi-replay', [replays(true)], options);
    const cpuRatioToGetOne = replay.cpuUsPerRequest / getOneByReplay.cpuUsPerRequest;
    const cpuRatioToMainGetOne = replay.cpuUsPerRequest / input.getOneCpuUsPerRequest;
    log(
      `  replay: ${replayCounts.replayed} answers 201 + Idempotent-Replayed, ${replayCounts.other} other; ` +
        `${replay.cpuUsPerRequest.toFixed(0)} µs CPU/req = ${cpuRatioToGetOne.toFixed(2)}× GET one just before (${getOneByReplay.cpuUsPerRequest.toFixed(0)} µs), ` +
        `${cpuRatioToMainGetOne.toFixed(2)}× the main GET one rounds (${input.getOneCpuUsPerRequest.toFixed(0)} µs)`,
    );

    // 3. Withdrawals racing over one balance.
    const { merchantId } = input;
    const refusalCodes: Record<string, number> = {};
    const withdraw = (phase: string, count: boolean): autocannon.Request[] => {
      let n = 0;
      return [
        {
          method: 'POST',
          path: WITHDRAWALS_PATH,
          headers: jsonHeaders,
          setupRequest: (request) => {
            n++;
            return {
              ...request,
              headers: { ...request.headers, 'idempotency-key': `bench-${tag}-wd-${phase}-${n}` },
              body: JSON.stringify({
                merchantReference: `bench-wd-${tag}-${phase}-${n}`,
                amount: WITHDRAWAL_AMOUNT_NGN,
                bankCode: PAYEE_BANK,
                accountNumber: nubanFor(PAYEE_BANK, String(n % 1_000_000_000).padStart(9, '0')),
                accountName: 'Bench Payee',
              }),
            };
          },
          onResponse: count
            ? (status, body) => {
                if (status !== 409) return;
                const code = errorCode(body);
                refusalCodes[code] = (refusalCodes[code] ?? 0) + 1;
              }
            : undefined,
        },
      ];
    };
    // Warm-up, accepted: a balance for more withdrawals than it can send. Its rate of 201s sizes the run's balance.
    await fundBalance(api, `${tag}-warm`, WARM_UP_FUNDS_NGN, input.checkAborted);
    const warmAccepted = await input.warm('warm-up api withdrawals (accepted)', withdraw('warm', false), { ...options, durationS: input.warmUpS });
    // Requests autocannon cut off at the end still run in the API: let them finish before reading the balance.
    await sleep(1_000);
    await settle(pg, merchantId, `bench-wd-${tag}-warm-%`, input.checkAborted);
    const acceptedPerS = (warmAccepted.statusCodeStats['201']?.count ?? 0) / warmAccepted.duration;
    // Warm-up, refused: what is left withdrawn in one request, then a second of 409s.
    const drainedNgn = (await api.balance()).available;
    if (drainedNgn > 0) {
      await drainBalance(api, tag, drainedNgn);
      await settle(pg, merchantId, `bench-wd-${tag}-drain`, input.checkAborted);
    }
    const warmRefused = await input.warm('warm-up api withdrawals (refused)', withdraw('warm-refused', false), { ...options, durationS: 1 });
    await sleep(1_000);
    // The run's balance: 60 % of the withdrawals it would complete if all were accepted.
    const expectedRequests = Math.max(10, Math.round(acceptedPerS * input.durationS));
    const fundedNgn = Math.ceil(expectedRequests * WITHDRAWAL_COVER) * WITHDRAWAL_AMOUNT_NGN;
    await fundBalance(api, `${tag}-race`, fundedNgn, input.checkAborted);
    const availableBefore = (await api.balance()).available;
    log(
      `  withdrawals: warm-up ${acceptedPerS.toFixed(0)} accepted/s ${JSON.stringify(statusCounts(warmAccepted))}, then ${JSON.stringify(statusCounts(warmRefused))}; ` +
        `expecting ~${expectedRequests} accepted in ${input.durationS}s: available ${availableBefore} NGN for ${WITHDRAWAL_AMOUNT_NGN} NGN each`,
    );
    const race = await input.measure('withdrawal-race', withdraw('race', true), options);
    await sleep(1_000);
    const { byStatus: byStatusAfter, ms: settleMs } = await settle(pg, merchantId, `bench-wd-${tag}-race-%`, input.checkAborted);
    const balanceAfter = await api.balance();
    const callbacks = await callbackDeliveries(input.railUrl);
    const verified = await input.verifyLedger();
    const created201 = race.statusCodes['201'] ?? 0;
    const refused409 = race.statusCodes['409'] ?? 0;
    const otherStatuses = Object.fromEntries(Object.entries(race.statusCodes).filter(([code]) => code !== '201' && code !== '409'));
    const serverErrors5xx = Object.entries(race.statusCodes)
      .filter(([code]) => code.startsWith('5'))
      .reduce((total, [, count]) => total + count, 0);
    const ledgerOk = verified.code === 0 && (verified.report as { ok?: unknown } | null)?.ok === true;
    log(
      `  withdrawals: 201 × ${created201}, 409 × ${refused409} ${JSON.stringify(refusalCodes)}, other ${JSON.stringify(otherStatuses)}, errors ${race.errors}; ` +
        `after ${(settleMs / 1000).toFixed(1)}s: ${JSON.stringify(byStatusAfter)}, balance ${JSON.stringify(balanceAfter)}; ` +
        `callbacks ${JSON.stringify(callbacks.byStatus)}; ledger:verify exit ${verified.code} ${JSON.stringify(verified.report)}`,
    );

    // 4. Mixed: create payment intent + GET one business + replay, each connection cycling through the three.
    const mixedOptions = { ...options, durationS: input.mixedS };
    await input.warm('warm-up api mixed', [...createIntents('mixed-warm'), getOne(), replays(false)], { ...mixedOptions, durationS: input.warmUpS });
    const rssStartMb = rssMb(input.apiPid);
    const sampler = sampleRss(input.apiPid);
    const mixed = await input.measure('mixed', [...createIntents('mixed'), getOne(), replays(false)], mixedOptions);
    const rssEndMb = rssMb(input.apiPid);
    const { peakMb: rssPeakMb, timeline: rssTimeline } = sampler.stop();
    const growthMb = rssEndMb - rssStartMb;
    log(
      `  mixed ${input.mixedS}s: API RSS ${rssStartMb.toFixed(0)} MB after warm-up → ${rssEndMb.toFixed(0)} MB at the end (peak ${rssPeakMb.toFixed(0)} MB), growth ${growthMb.toFixed(1)} MB`,
    );

    // 5. Round trips per operation, counted on operations done one at a time.
    const roundTrips = await countRoundTrips(input, api, pg, tag);

    const figures = (run: MeasuredRun): RunFigures => ({
      requests: run.requests,
      rps: run.rps,
      p50Ms: run.latencyMs.p50,
      p99Ms: run.latencyMs.p99,
      cpuUsPerRequest: run.cpuUsPerRequest,
      non2xx: run.non2xx,
      errors: run.errors,
      statusCodes: run.statusCodes,
    });
    const all201 = (run: MeasuredRun) => run.non2xx === 0 && run.errors === 0 && run.requests > 0 && (run.statusCodes['201'] ?? 0) === run.requests;
    const answers = (run: MeasuredRun) => `${run.non2xx} non-2xx, ${run.errors} errors`;
    const targets: Target[] = [
      {
        name: 'Create payment intent: API CPU ÷ contract reference CPU',
        target: `≤ ${MONEY_TARGETS.createVsContract.toFixed(2)}×`,
        measured: `${createVsContract.toFixed(2)}× (${at50.cpuUsPerRequest.toFixed(0)} vs ${contract.cpuUsPerRequest.toFixed(0)} µs per request), contract ${answers(contract)}`,
        pass: createVsContract <= MONEY_TARGETS.createVsContract && all201(contract),
      },
      {
        name: 'Create payment intent, 50 and 10 connections: every answer 201',
        target: 'all 201',
        measured:
          `${answers(at50)} / ${answers(at10)}; ${at50.cpuUsPerRequest.toFixed(0)} µs CPU/req; ` +
          `p99 ${at50.latencyMs.p99.toFixed(1)} ms at ${at50.rps.toFixed(0)} req/s, ${at10.latencyMs.p99.toFixed(1)} ms at ${at10.rps.toFixed(0)} req/s (10 connections)`,
        pass: all201(at50) && all201(at10),
      },
      ...(
        [
          ['create payment intent', roundTrips.createPaymentIntent],
          ['confirm payment intent', roundTrips.confirmPaymentIntent],
          ['withdrawal, to succeeded', roundTrips.withdrawal],
        ] as const
      ).map(([operation, trips]) => ({ name: `Round trips per ${operation}`, target: 'reported', measured: formatRoundTrips(trips), pass: null })),
      {
        name: 'Replay CPU ÷ GET one CPU (all 201 replayed)',
        target: `≤ ${MONEY_TARGETS.replayCpuRatio.toFixed(2)}×`,
        measured:
          `${cpuRatioToGetOne.toFixed(2)}× (${replay.cpuUsPerRequest.toFixed(0)} vs ${getOneByReplay.cpuUsPerRequest.toFixed(0)} µs/req; ` +
          `${cpuRatioToMainGetOne.toFixed(2)}× the main rounds' ${input.getOneCpuUsPerRequest.toFixed(0)}), ` +
          `${replayCounts.replayed} replayed, ${replayCounts.other} other, ${replay.errors} errors`,
        pass: cpuRatioToGetOne <= MONEY_TARGETS.replayCpuRatio && replayCounts.other === 0 && replay.errors === 0 && replayCounts.replayed > 0,
      },
      {
        name: 'Withdrawal race: ledger:verify ok, no 5xx',
        target: 'ok, only 201 / 409',
        measured:
          `ok ${ledgerOk}, 201 × ${created201}, 409 × ${refused409}, other ${JSON.stringify(otherStatuses)}, ${race.errors} errors, ` +
          `p99 ${race.latencyMs.p99.toFixed(1)} ms at ${race.rps.toFixed(0)} req/s`,
        pass:
          ledgerOk &&
          serverErrors5xx === 0 &&
          Object.keys(otherStatuses).length === 0 &&
          race.errors === 0 &&
          created201 > 0 &&
          refused409 > 0 &&
          (refusalCodes.insufficient_funds ?? 0) === refused409,
      },
      {
        name: `Mixed ${input.mixedS}s: API RSS growth`,
        target: `< ${MONEY_TARGETS.mixedRssGrowthMb} MB`,
        measured: `${rssStartMb.toFixed(0)} → ${rssEndMb.toFixed(0)} MB (+${growthMb.toFixed(1)}, peak ${rssPeakMb.toFixed(0)}), ${answers(mixed)}`,
        pass: growthMb < MONEY_TARGETS.mixedRssGrowthMb && mixed.non2xx === 0 && mixed.errors === 0,
      },
    ];

    return {
      paymentIntentAmountNgn: PI_AMOUNT_NGN,
      create: { at50: figures(at50), at10: figures(at10), contract: figures(contract), cpuVsContract: createVsContract },
      getOneByReplay: figures(getOneByReplay),
      replay: {
        ...figures(replay),
        replayedAnswers: replayCounts.replayed,
        otherAnswers: replayCounts.other,
        cpuRatioToGetOne,
        cpuRatioToMainGetOne,
      },
      withdrawals: {
        amountNgn: WITHDRAWAL_AMOUNT_NGN,
        warmUp: { fundedNgn: WARM_UP_FUNDS_NGN, accepted: statusCounts(warmAccepted), acceptedPerS, drainedNgn, refused: statusCounts(warmRefused) },
        expectedRequests,
        availableBeforeNgn: availableBefore,
        measured: figures(race),
        created201,
        refused409,
        refusalCodes,
        serverErrors5xx,
        otherStatuses,
        byStatusAfter,
        settleMs,
        balanceAfterNgn: balanceAfter,
        callbacks,
        ledgerVerify: { exitCode: verified.code, report: verified.report },
      },
      mixed: { ...figures(mixed), durationS: input.mixedS, rssStartMb, rssEndMb, rssPeakMb, growthMb, rssTimeline },
      roundTrips,
      targets,
    };
  } finally {
    await pg.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export function apiClient(apiUrl: string, apiKey: string) {
  const send = async (method: string, path: string, body?: string, key?: string): Promise<Answer> => {
    const headers: Record<string, string> = { 'x-api-key': apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key !== undefined) headers['idempotency-key'] = key;
    const response = await fetch(`${apiUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  return {
    post: (path: string, body: string, key?: string) => send('POST', path, body, key),
    get: (path: string) => send('GET', path),
    /** The merchant's NGN balance, in naira. */
    async balance(): Promise<{ available: number; reserved: number }> {
      const answer = await send('GET', '/api/merchant/balance');
      const entry = (answer.json as { response?: { currency: string; available: number; reserved: number }[] } | undefined)?.response?.find(
        (b) => b.currency === 'NGN',
      );
      if (answer.status !== 200) throw new Error(`GET balance answered ${answer.status}: ${answer.text}`);
      return { available: entry?.available ?? 0, reserved: entry?.reserved ?? 0 };
    },
  };
}

type ApiClient = ReturnType<typeof apiClient>;

/**
 * Credits the merchant's available balance with `amountNgn` the way a merchant's money arrives:
 * a payment intent, a transfer into it from the sandbox rail (the test helper; the bench's API
 * accepts `mk_test` keys), the rail's signed callback, then confirm.
 */
export async function fundBalance(api: ApiClient, tag: string, amountNgn: number, checkAborted: () => void): Promise<void> {
  const created = await api.post(
    PAYMENT_INTENTS_PATH,
    JSON.stringify({ merchantReference: `bench-fund-${tag}`, amount: amountNgn }),
    `bench-fund-${tag}-create`,
  );
  const id = (created.json as { response?: { paymentIntentId?: string } } | undefined)?.response?.paymentIntentId;
  if (created.status !== 201 || !id) throw new Error(`funding: create payment intent answered ${created.status}: ${created.text}`);
  const funded = await api.post(`/api/merchant/test-helpers/payment-intents/${id}/fund`, '{}', `bench-fund-${tag}-transfer`);
  if (funded.status !== 202) throw new Error(`funding: the test transfer answered ${funded.status}: ${funded.text}`);
  const until = Date.now() + 15_000;
  for (;;) {
    checkAborted();
    const intent = await api.get(`${PAYMENT_INTENTS_PATH}/${id}`);
    const status = (intent.json as { response?: { status?: string } } | undefined)?.response?.status;
    if (status === 'funds_received') break;
    if (Date.now() > until) throw new Error(`funding: intent ${id} still ${status} 15 s after the test transfer (did the rail's callback reach the API?)`);
    await sleep(50);
  }
  const confirmed = await api.post(`${PAYMENT_INTENTS_PATH}/${id}/confirm`, '{}', `bench-fund-${tag}-confirm`);
  if (confirmed.status !== 200) throw new Error(`funding: confirm answered ${confirmed.status}: ${confirmed.text}`);
}

/** One withdrawal of `amountNgn` (what the warm-up left) that must be accepted. */
async function drainBalance(api: ApiClient, tag: string, amountNgn: number): Promise<void> {
  const body = {
    merchantReference: `bench-wd-${tag}-drain`,
    amount: amountNgn,
    bankCode: PAYEE_BANK,
    accountNumber: nubanFor(PAYEE_BANK, '000000001'),
    accountName: 'Bench Payee',
  };
  const answer = await api.post(WITHDRAWALS_PATH, JSON.stringify(body), `bench-${tag}-wd-drain`);
  if (answer.status !== 201) throw new Error(`withdrawing the warm-up's excess of ${amountNgn} NGN answered ${answer.status}: ${answer.text}`);
}

/** Runs of one scenario taken together: requests, statuses and CPU summed, latencies and rates averaged. */
function merged(runs: MeasuredRun[]): MeasuredRun {
  const requests = sum(runs.map((r) => r.requests));
  const statusCodes: Record<string, number> = {};
  for (const run of runs) for (const [code, n] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const mean = (values: number[]) => sum(values) / values.length;
  return {
    requests,
    rps: mean(runs.map((r) => r.rps)),
    durationS: sum(runs.map((r) => r.durationS)),
    latencyMs: { p50: mean(runs.map((r) => r.latencyMs.p50)), p99: mean(runs.map((r) => r.latencyMs.p99)) },
    non2xx: sum(runs.map((r) => r.non2xx)),
    errors: sum(runs.map((r) => r.errors)),
    timeouts: sum(runs.map((r) => r.timeouts)),
    statusCodes,
    cpuUsPerRequest: sum(runs.map((r) => r.cpuUsPerRequest * r.requests)) / requests,
  };
}

/** How many of each operation the round trips are counted over. */
const COUNTED_OPERATIONS = 50;

/**
 * Statements and commits per create payment intent, per confirm and per withdrawal (its payout
 * and the rail's callback included), each counted over operations sent one at a time once the
 * machine is quiet. No worker runs in this part: what the events cost later is the webhooks
 * part's count per delivery.
 */
async function countRoundTrips(input: MoneyBenchInput, api: ApiClient, pg: Client, tag: string): Promise<MoneyBenchResult['roundTrips']> {
  const ops = [input.opsUrl];
  const counted = async (label: string, operation: (n: number) => Promise<void>, done?: () => Promise<void>): Promise<RoundTrips> => {
    const before = await roundTripSnapshot(pg, ops);
    for (let n = 1; n <= COUNTED_OPERATIONS; n++) await operation(n);
    await done?.();
    const trips = roundTripsPer(before, await roundTripSnapshot(pg, ops, before), COUNTED_OPERATIONS);
    input.log(`  round trips per ${label}: ${formatRoundTrips(trips)}`);
    return trips;
  };
  const create = async (reference: string): Promise<string> => {
    const answer = await api.post(PAYMENT_INTENTS_PATH, JSON.stringify({ merchantReference: reference, amount: PI_AMOUNT_NGN }), `${reference}-key`);
    const id = (answer.json as { response?: { paymentIntentId?: string } } | undefined)?.response?.paymentIntentId;
    if (answer.status !== 201 || !id) throw new Error(`create payment intent answered ${answer.status}: ${answer.text}`);
    return id;
  };
  const createPaymentIntent = await counted('create payment intent', async (n) => void (await create(`bench-rt-${tag}-create-${n}`)));

  // Confirm: intents funded first (not counted), then confirmed.
  const funded: string[] = [];
  for (let n = 1; n <= COUNTED_OPERATIONS; n++) {
    const id = await create(`bench-rt-${tag}-confirm-${n}`);
    const transfer = await api.post(`/api/merchant/test-helpers/payment-intents/${id}/fund`, '{}', `bench-rt-${tag}-fund-${n}`);
    if (transfer.status !== 202) throw new Error(`the test transfer answered ${transfer.status}: ${transfer.text}`);
    funded.push(id);
  }
  await untilCount(
    pg,
    `SELECT count(*) AS n FROM payment_intents WHERE id = ANY($1) AND status = 'funds_received'`,
    [funded],
    COUNTED_OPERATIONS,
    input.checkAborted,
  );
  const confirmPaymentIntent = await counted('confirm payment intent', async (n) => {
    const answer = await api.post(`${PAYMENT_INTENTS_PATH}/${funded[n - 1]}/confirm`, '{}', `bench-rt-${tag}-confirm-${n}`);
    if (answer.status !== 200) throw new Error(`confirm answered ${answer.status}: ${answer.text}`);
  });

  // Withdrawals, until succeeded: the payout and its callback are part of one.
  const withdrawal = await counted(
    'withdrawal (succeeded)',
    async (n) => {
      const body = {
        merchantReference: `bench-rt-${tag}-wd-${n}`,
        amount: WITHDRAWAL_AMOUNT_NGN,
        bankCode: PAYEE_BANK,
        accountNumber: nubanFor(PAYEE_BANK, String(n).padStart(9, '0')),
        accountName: 'Bench Payee',
      };
      const answer = await api.post(WITHDRAWALS_PATH, JSON.stringify(body), `bench-rt-${tag}-wd-${n}`);
      if (answer.status !== 201) throw new Error(`withdrawal answered ${answer.status}: ${answer.text}`);
    },
    () =>
      untilCount(
        pg,
        `SELECT count(*) AS n FROM withdrawals WHERE merchant_id = $1 AND merchant_reference LIKE $2 AND status = 'succeeded'`,
        [input.merchantId, `bench-rt-${tag}-wd-%`],
        COUNTED_OPERATIONS,
        input.checkAborted,
      ),
  );
  return { createPaymentIntent, confirmPaymentIntent, withdrawal };
}

/** Waits (up to 30 s) until the statement's `n` reaches `expected`. */
async function untilCount(pg: Client, sql: string, values: unknown[], expected: number, checkAborted: () => void): Promise<void> {
  const until = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const { rows } = await pg.query<{ n: string }>(sql, values);
    if (Number(rows[0].n) >= expected) return;
    if (Date.now() > until) throw new Error(`still ${rows[0].n} of ${expected} after ${SETTLE_TIMEOUT_MS / 1000} s: ${sql}`);
    checkAborted();
    await sleep(100);
  }
}

/** Waits (up to 30 s) until none of these withdrawals is pending or processing; their statuses then. */
async function settle(
  pg: Client,
  merchantId: string,
  referencePattern: string,
  checkAborted: () => void,
): Promise<{ byStatus: Record<string, number>; ms: number }> {
  const started = Date.now();
  for (;;) {
    const byStatus = await withdrawalsByStatus(pg, merchantId, referencePattern);
    if ((byStatus.pending ?? 0) + (byStatus.processing ?? 0) === 0 || Date.now() - started > SETTLE_TIMEOUT_MS) return { byStatus, ms: Date.now() - started };
    checkAborted();
    await sleep(100);
  }
}

async function withdrawalsByStatus(pg: Client, merchantId: string, referencePattern: string): Promise<Record<string, number>> {
  const { rows } = await pg.query<{ status: string; count: string }>(
    `SELECT status, count(*) AS count FROM withdrawals WHERE merchant_id = $1 AND merchant_reference LIKE $2 GROUP BY status`,
    [merchantId, referencePattern],
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

async function callbackDeliveries(railUrl: string): Promise<{ delivered: number; byStatus: Record<string, number> }> {
  const response = await fetch(`${railUrl}/_sandbox/webhook`, { signal: AbortSignal.timeout(10_000) });
  const state = (await response.json()) as { deliveries?: { status: number | null }[] };
  const byStatus: Record<string, number> = {};
  for (const delivery of state.deliveries ?? []) byStatus[String(delivery.status)] = (byStatus[String(delivery.status)] ?? 0) + 1;
  return { delivered: byStatus['200'] ?? 0, byStatus };
}

function statusCounts(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
}

/** The code of an error answer (`{ error: { code } }`), or what the body was instead. */
function errorCode(body: string): string {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : '(no code)';
  } catch {
    return '(not JSON)';
  }
}

function headerValue(headers: Record<string, string | string[]>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(',') : value;
  return undefined;
}

/** RSS of the process every 250 ms: the peak, and the highest sample of each 5 s as [s, MB]. */
function sampleRss(pid: number): { stop(): { peakMb: number; timeline: [number, number][] } } {
  const started = Date.now();
  let peakMb = rssMb(pid);
  const timeline: [number, number][] = [];
  const timer = setInterval(() => {
    const mb = rssMb(pid);
    peakMb = Math.max(peakMb, mb);
    const slice = Math.floor((Date.now() - started) / 1000 / RSS_TIMELINE_S) * RSS_TIMELINE_S;
    const last = timeline[timeline.length - 1];
    if (last?.[0] === slice) last[1] = Math.max(last[1], mb);
    else timeline.push([slice, mb]);
  }, RSS_SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakMb, timeline: timeline.map(([s, mb]) => [s, Math.round(mb * 10) / 10]) };
    },
  };
}

/** Payment intents, replays, withdrawals racing over one balance, a mixed run. */
export const runMoneyPart: BenchPart = async (d) => {
  log('');
  const apiGetOneRuns = d.runs.filter((r) => r.scenario === 'get-one' && r.server === 'api');
  const apiGetOneCpuUs =
    apiGetOneRuns.length > 0 ? sum(apiGetOneRuns.map((r) => r.cpuUsPerRequest * r.requests)) / sum(apiGetOneRuns.map((r) => r.requests)) : NaN;
  const money = await runMoneyBench({
    apiUrl: d.servers.api.url,
    apiPid: d.servers.api.pid,
    opsUrl: d.servers.api.opsUrl!,
    apiKey: d.apiKey,
    merchantId: d.merchantId,
    databaseUrl: d.databaseUrl,
    railUrl: d.rail.url,
    businessIds: d.businessIds,
    getOneCpuUsPerRequest: apiGetOneCpuUs,
    connections: CONNECTIONS,
    warmUpS: WARMUP_S,
    durationS: DURATION_S,
    mixedS: MIXED_S,
    measure: (scenario, requests, options, server = 'api') => d.measure(scenario, server, options.round ?? 1, requests, options),
    warm: (label, requests, options, server = 'api') => d.warm(label, server, requests, options),
    rounds: ROUNDS,
    verifyLedger: d.verifyLedger,
    checkAborted,
    log,
  });
  // The rail's records go: the KYB worker, started later, would otherwise reconcile every event of
  // these runs (its periodic job reads the rail's event list), and its memory is measured.
  await d.resetRail();
  log(
    `(money targets: create payment intent all 201; ` +
      `replay ≤ ${MONEY_TARGETS.replayCpuRatio}× GET one's CPU; withdrawals: ledger sound, no 5xx; mixed RSS growth < ${MONEY_TARGETS.mixedRssGrowthMb} MB)`,
  );
  return { targets: money.targets, results: { money } };
};
