/**
 * KYB part of `npm run bench` (issue 3): one 45 MB application (time to 202, memory growth of
 * the API process), ten concurrent 45 MB applications (each 202 or shed with 503 + Retry-After;
 * the process stays under 1.5 GB and alive), and GET …/onboarding while the provider answers in
 * 50 ms. Uses the API and the sandbox verification provider the deployment started.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import autocannon from 'autocannon';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { REQUIRED_COMPANY_FILE_TYPES } from '../src/modules/kyb/kyb.constants';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart } from './deployment';
import { rssMb } from './measure';
import { log } from './processes';

export const MiB = 1024 * 1024;
const DOCUMENT_BYTES = 45 * MiB;
const CONCURRENT_SUBMISSIONS = 10;
const PROVIDER_LATENCY_MS = 50;
const POLLED_BUSINESSES = 100;

export const KYB_TARGETS = { rssGrowthFactor: 3, concurrentPeakMb: 1536 };

export interface KybBenchInput {
  apiUrl: string;
  apiPid: number;
  apiKey: string;
  databaseUrl: string;
  /** Business ids of the API key's merchant, at least 11 + POLLED_BUSINESSES of them. */
  businessIds: string[];
  providerUrl: string;
  providerApiKey: string;
  log: (message: string) => void;
}

export interface KybBenchResult {
  bodyMb: number;
  single: { status: number; msTo202: number; baselineRssMb: number; peakRssMb: number; growthMb: number };
  concurrent: { statuses: Record<string, number>; retryAfterOnAll503: boolean; peakRssMb: number; aliveAfter: boolean };
  onboarding: { rps: number; p50Ms: number; p99Ms: number; non2xx: number; providerLatencyMs: number };
  targets: { name: string; target: string; measured: string; pass: boolean }[];
}

/** A valid application whose six required groups carry 45 MB (or `totalBytes`) of random documents in total. */
export function applicationBody(registrationNumber: string, totalBytes = DOCUMENT_BYTES): Buffer {
  const perFile = Math.floor(totalBytes / REQUIRED_COMPANY_FILE_TYPES.length);
  const file = randomBytes(perFile).toString('base64');
  const person = (type: string) => ({
    type,
    first_name: 'Ada',
    last_name: 'Obi',
    birthday: '1985-02-17',
    nationality: 'NG',
    email: `${type}@bench.example`,
    id_type: 'passport',
    id_number: 'A12345678',
    residential_address: { street: '1 Marina', city: 'Lagos', country: 'NG', postal_code: '101001' },
    identity_files: [],
  });
  return Buffer.from(
    JSON.stringify({
      company: {
        name: 'Bench Trading Limited',
        business_name: 'Bench Trading',
        registration_number: registrationNumber,
        country: 'NG',
        incorporation_date: '2019-04-01',
        type: 'limited_liability_company',
        description: 'Benchmark',
        industry: 'wholesale_trade',
        register_address: { street: '12 Broad Street', city: 'Lagos', postal_code: '101001' },
        business_address: { street: '12 Broad Street', city: 'Lagos', country: 'NG', postal_code: '101001' },
        email: 'bench@bench.example',
        url: 'https://bench.example',
        tax_id: 'TIN-1',
      },
      associated_persons: [person('representative'), person('applicant')],
      company_files: REQUIRED_COMPANY_FILE_TYPES.map((file_type) => ({ file_type, files: [file] })),
    }),
  );
}

/** Samples the process's RSS every 5 ms until stopped; returns the highest value seen. */
export function watchPeak(pid: number): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // process gone: reported by the caller
    }
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

export function post(url: string, apiKey: string, body: Buffer): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-api-key': apiKey },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      },
    );
    // A shed request is answered before its body is read, and the connection closed.
    req.on('error', () => resolve({ status: 0 }));
    req.end(body);
  });
}

export async function runKybBench(input: KybBenchInput): Promise<KybBenchResult> {
  const { apiUrl, apiPid, apiKey, log } = input;
  const pg = new CountedClient({ connectionString: input.databaseUrl });
  await pg.connect();
  try {
    const [single, ...rest] = input.businessIds;
    const concurrentIds = rest.slice(0, CONCURRENT_SUBMISSIONS);
    const polledIds = rest.slice(CONCURRENT_SUBMISSIONS, CONCURRENT_SUBMISSIONS + POLLED_BUSINESSES);
    // Agreements accepted out of band: the page is not what is measured here.
    await pg.query(`UPDATE pobo_businesses SET agreement_status = 'accepted', kyb_status = 'not_started' WHERE id = ANY($1)`, [
      [single, ...concurrentIds, ...polledIds],
    ]);

    // 1. One 45 MB application.
    const body = applicationBody('RC-BENCH-HOLD');
    const bodyMb = body.length / MiB;
    global.gc?.();
    const baselineRssMb = rssMb(apiPid);
    const peak = watchPeak(apiPid);
    const started = performance.now();
    const answer = await post(`${apiUrl}${POBO_USERS_PATH}/${single}/onboarding`, apiKey, body);
    const msTo202 = performance.now() - started;
    const peakRssMb = peak.stop();
    log(
      `kyb single ${bodyMb.toFixed(1)} MB body: ${answer.status} in ${msTo202.toFixed(0)} ms, RSS ${baselineRssMb.toFixed(0)} → peak ${peakRssMb.toFixed(0)} MB`,
    );

    // 2. Ten at once.
    const concurrentPeak = watchPeak(apiPid);
    const bodies = concurrentIds.map(() => body);
    const answers = await Promise.all(concurrentIds.map((id, i) => post(`${apiUrl}${POBO_USERS_PATH}/${id}/onboarding`, apiKey, bodies[i])));
    const concurrentPeakMb = concurrentPeak.stop();
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const retryAfterOnAll503 = answers.filter((a) => a.status === 503).every((a) => a.retryAfter !== undefined && /^\d+$/.test(a.retryAfter));
    const aliveAfter = await fetch(`${apiUrl}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    log(`kyb ${CONCURRENT_SUBMISSIONS} concurrent: ${JSON.stringify(statuses)}, peak RSS ${concurrentPeakMb.toFixed(0)} MB, alive after: ${aliveAfter}`);

    // 3. GET onboarding while the provider answers in 50 ms: businesses whose application the provider holds.
    await fetch(`${input.providerUrl}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: PROVIDER_LATENCY_MS }),
    });
    for (const id of polledIds) {
      const reference = `kyba_${randomBytes(12).toString('hex')}`;
      const created = await fetch(`${input.providerUrl}/v1/business-applications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${input.providerApiKey}`, 'idempotency-key': reference },
        body: JSON.stringify({ reference, company: { registration_number: `RC-${id}-HOLD` }, associated_persons: [], documents: [] }),
      });
      const { id: providerId } = (await created.json()) as { id: string };
      await pg.query(
        `WITH a AS (INSERT INTO kyb_applications (id, business_id, status, payload, provider_reference, submitted_at)
                    VALUES ($1, $2, 'submitted', '{}', $3, now()))
         UPDATE pobo_businesses SET kyb_status = 'processing' WHERE id = $2`,
        [reference, id, providerId],
      );
    }
    let next = 0;
    const result = await autocannon({
      url: apiUrl,
      connections: 20,
      duration: 10,
      headers: { 'x-api-key': apiKey },
      requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: `${POBO_USERS_PATH}/${polledIds[next++ % polledIds.length]}/onboarding` }) }],
    });
    const onboarding = {
      rps: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      providerLatencyMs: PROVIDER_LATENCY_MS,
    };
    log(
      `kyb GET onboarding (provider ${PROVIDER_LATENCY_MS} ms): ${onboarding.rps.toFixed(0)} req/s, p50 ${onboarding.p50Ms} ms, p99 ${onboarding.p99Ms} ms, non-2xx ${onboarding.non2xx}`,
    );

    const growthMb = peakRssMb - baselineRssMb;
    const everyAnswerAllowed = answers.every((a) => a.status === 202 || a.status === 503);
    return {
      bodyMb,
      single: { status: answer.status, msTo202, baselineRssMb, peakRssMb, growthMb },
      concurrent: { statuses, retryAfterOnAll503, peakRssMb: concurrentPeakMb, aliveAfter },
      onboarding,
      targets: [
        {
          name: '45 MB KYB submission: 202, RSS growth',
          target: `< ${KYB_TARGETS.rssGrowthFactor}× body`,
          measured: `${answer.status}, +${growthMb.toFixed(0)} MB for a ${bodyMb.toFixed(0)} MB body (${(growthMb / bodyMb).toFixed(2)}×), ${msTo202.toFixed(0)} ms`,
          pass: answer.status === 202 && growthMb < KYB_TARGETS.rssGrowthFactor * bodyMb,
        },
        {
          name: `${CONCURRENT_SUBMISSIONS} concurrent 45 MB submissions`,
          target: `202 or 503+Retry-After, < ${KYB_TARGETS.concurrentPeakMb} MB, alive`,
          measured: `${JSON.stringify(statuses)}, peak ${concurrentPeakMb.toFixed(0)} MB, alive ${aliveAfter}`,
          pass: everyAnswerAllowed && retryAfterOnAll503 && concurrentPeakMb < KYB_TARGETS.concurrentPeakMb && aliveAfter,
        },
        {
          name: `GET onboarding, provider at ${PROVIDER_LATENCY_MS} ms`,
          target: 'all 200',
          measured: `${onboarding.rps.toFixed(0)} req/s, p99 ${onboarding.p99Ms} ms, ${onboarding.non2xx} non-2xx`,
          pass: onboarding.non2xx === 0 && result.errors === 0,
        },
      ],
    };
  } finally {
    await pg.end();
  }
}

/** Large submissions and GET onboarding. */
export const runKybPart: BenchPart = async (d) => {
  log('');
  const kyb = await runKybBench({
    apiUrl: d.servers.api.url,
    apiPid: d.servers.api.pid,
    apiKey: d.apiKey,
    databaseUrl: d.databaseUrl,
    businessIds: d.businessIds.slice(0, 200),
    providerUrl: d.provider.url,
    providerApiKey: d.provider.apiKey,
    log,
  });
  log(`(KYB targets: RSS growth < ${KYB_TARGETS.rssGrowthFactor}× the body; concurrent peak < ${KYB_TARGETS.concurrentPeakMb} MB)`);
  return { targets: kyb.targets, results: { kyb } };
};
