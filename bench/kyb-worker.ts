/**
 * KYB worker part of `npm run bench`: the memory of the worker process (`dist/src/worker.js`)
 * while it forwards one 45 MB application (six documents of 7.5 MB) to the verification
 * provider. The worker reads each document from PostgreSQL one 512 KiB piece at a time and
 * streams it with `PUT /v1/documents/:id`, so what it holds is a piece or a few, not a document
 * and certainly not the application: its RSS growth must stay under twice the largest document.
 *
 * The application measured is the only work the worker has: earlier applications (the API part's
 * -HOLD submissions, the polled ones) are set aside before it starts. The worker first forwards a
 * small warm-up application (its first provider call compiles undici's WebAssembly HTTP parser,
 * a one-time cost of the process, reported apart), idles, and only then is the baseline taken
 * and the 45 MB application submitted through the API.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Client } from 'pg';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { applicationBody, MiB, post } from './kyb';
import { rssMb } from './measure';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart } from './deployment';
import { checkAborted, log, pidOf, stopChild, Started } from './processes';

/** Growth allowed, in largest documents; time allowed for an application to reach `submitted`. */
export const KYB_WORKER_TARGETS = { growthPerLargestDocument: 2, forwardTimeoutS: 60 };

/** The warm-up application: six random documents of 4 KiB. */
const WARM_UP_BYTES = 24 * 1024;
const IDLE_BEFORE_BASELINE_MS = 2_000;
const SAMPLE_MS = 5;
const POLL_MS = 50;
/** The RSS timeline kept in the results: the highest sample of each slice of this length. */
const TIMELINE_SLICE_MS = 100;

export interface StartedWorker {
  pid: number;
  /** How the worker exited (`code 1`, `SIGKILL`) if it has: a crash fails the target. */
  exited: () => string | undefined;
  /** The last lines the worker logged (stdout and stderr), for a failure report. */
  outputTail: () => string;
}

export interface KybWorkerBenchInput {
  apiUrl: string;
  apiKey: string;
  databaseUrl: string;
  providerUrl: string;
  /** Two businesses of the API key's merchant that no earlier part of the bench used: warm-up, measured. */
  businessIds: [string, string];
  /** Starts the built worker and resolves once it has logged `worker started`. */
  startWorker: () => Promise<StartedWorker>;
  /** Throws once the run is being stopped (Ctrl-C, deadline, a child that died). */
  checkAborted: () => void;
  log: (message: string) => void;
}

/** One application submitted through the API and followed until the worker forwarded it. */
interface Forwarding {
  applicationId?: string;
  submitStatus: number;
  msTo202: number;
  /** From the API's 202 to `kyb_applications.status = 'submitted'` (outbox relay, the PUTs, the POST). */
  msToForward?: number;
  /** `submitted` when forwarded; otherwise what went wrong. */
  finalStatus: string;
  lastError: string | null;
  forwardAttempts: number;
  documents: { count: number; largestMb: number; totalMb: number };
  baselineRssMb: number;
  peakRssMb: number;
  /** Milliseconds after the baseline at which the peak was sampled. */
  peakAtMs: number;
  growthMb: number;
  samples: number;
  /** [ms after the baseline, highest RSS MB in that slice], one entry per slice. */
  rssTimeline: [number, number][];
}

export interface KybWorkerBenchResult {
  /** Applications set aside (queued or submitted → reviewed) and outbox rows dropped before the worker started. */
  setAside: { applications: number; outboxRows: number };
  workerPid: number;
  /** RSS of the worker once started and idle, before the warm-up. */
  startedRssMb: number;
  /** The small application forwarded first: its growth is the one-time cost of the first provider calls. */
  warmUp: Forwarding;
  /** The 45 MB application; absent when the warm-up was not forwarded. */
  measured?: Forwarding & {
    /** VmHWM at the end: the kernel's own high-water mark, a cross-check of the sampling (reset at the baseline when allowed). */
    hwmMb: number;
    /** Whether VmHWM was reset at the baseline; if not, it covers the worker's whole life. */
    hwmResetAtBaseline: boolean;
  };
  /** How the worker exited during the measurement, if it did (it should not). */
  workerExit: string | null;
  targets: { name: string; target: string; measured: string; pass: boolean }[];
}

/** Resets VmHWM to the current RSS (`clear_refs` 5, Linux ≥ 4.0); false where that is not allowed. */
function resetHwm(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function hwmMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Samples RSS every 5 ms; keeps the peak, when it happened, and the highest sample of each 100 ms slice. */
function sampleRss(pid: number): { stop(): { peakMb: number; peakAtMs: number; samples: number; timeline: [number, number][] } } {
  const began = performance.now();
  let peakMb = rssMb(pid);
  let peakAtMs = 0;
  let samples = 1;
  const slices = new Map<number, number>([[0, peakMb]]);
  const timer = setInterval(() => {
    let value: number;
    try {
      value = rssMb(pid);
    } catch {
      return; // process gone: reported by the caller
    }
    const at = performance.now() - began;
    samples++;
    if (value > peakMb) {
      peakMb = value;
      peakAtMs = at;
    }
    const slice = Math.floor(at / TIMELINE_SLICE_MS) * TIMELINE_SLICE_MS;
    slices.set(slice, Math.max(slices.get(slice) ?? 0, value));
  }, SAMPLE_MS);
  let result: ReturnType<ReturnType<typeof sampleRss>['stop']> | undefined;
  return {
    stop: () => {
      clearInterval(timer);
      result ??= { peakMb, peakAtMs, samples, timeline: [...slices.entries()].map(([at, mb]) => [at, Math.round(mb * 10) / 10]) };
      return result;
    },
  };
}

/**
 * Takes the worker's RSS as the baseline, submits `body` for `businessId` through the API and
 * samples the RSS until the application is `submitted` (or no longer queued, or the worker died,
 * or the time ran out).
 */
async function forwardOne(pg: Client, input: KybWorkerBenchInput, worker: StartedWorker, businessId: string, body: Buffer): Promise<Forwarding> {
  const baselineRssMb = rssMb(worker.pid);
  const sampler = sampleRss(worker.pid);
  try {
    const submitted = performance.now();
    const answer = await post(`${input.apiUrl}${POBO_USERS_PATH}/${businessId}/onboarding`, input.apiKey, body);
    const after202 = performance.now();
    let row: { id: string; status: string; last_error: string | null; forward_attempts: number } | undefined;
    let msToForward: number | undefined;
    if (answer.status === 202) {
      const until = after202 + KYB_WORKER_TARGETS.forwardTimeoutS * 1000;
      for (;;) {
        input.checkAborted();
        const { rows } = await pg.query<NonNullable<typeof row>>(
          'SELECT id, status, last_error, forward_attempts FROM kyb_applications WHERE business_id = $1 ORDER BY created_at DESC LIMIT 1',
          [businessId],
        );
        row = rows[0];
        if (row && row.status !== 'queued') {
          if (row.status === 'submitted') msToForward = performance.now() - after202;
          break;
        }
        if (worker.exited() || performance.now() > until) break;
        await sleep(POLL_MS);
      }
    }
    const { peakMb, peakAtMs, samples, timeline } = sampler.stop();
    const docs = await pg.query<{ count: number; largest: string | null; total: string | null }>(
      'SELECT count(*)::int AS count, max(size_bytes) AS largest, sum(size_bytes) AS total FROM kyb_documents WHERE application_id = $1',
      [row?.id ?? ''],
    );
    const crashed = worker.exited();
    let finalStatus = row?.status ?? 'missing';
    if (answer.status !== 202) finalStatus = `not accepted by the API (${answer.status})`;
    else if (finalStatus === 'queued')
      finalStatus = crashed ? `queued, worker exited (${crashed})` : `still queued after ${KYB_WORKER_TARGETS.forwardTimeoutS} s`;
    return {
      applicationId: row?.id,
      submitStatus: answer.status,
      msTo202: after202 - submitted,
      msToForward,
      finalStatus,
      lastError: row?.last_error ?? null,
      forwardAttempts: row?.forward_attempts ?? 0,
      documents: { count: docs.rows[0].count, largestMb: Number(docs.rows[0].largest ?? 0) / MiB, totalMb: Number(docs.rows[0].total ?? 0) / MiB },
      baselineRssMb,
      peakRssMb: peakMb,
      peakAtMs,
      growthMb: peakMb - baselineRssMb,
      samples,
      rssTimeline: timeline,
    };
  } finally {
    sampler.stop();
  }
}

function describe(f: Forwarding): string {
  const outcome =
    f.finalStatus === 'submitted' ? `submitted ${f.msToForward!.toFixed(0)} ms after the 202` : `${f.finalStatus}${f.lastError ? ` (${f.lastError})` : ''}`;
  return (
    `${f.documents.count} documents (${f.documents.totalMb.toFixed(f.documents.totalMb < 1 ? 3 : 1)} MB, largest ${f.documents.largestMb.toFixed(f.documents.largestMb < 1 ? 3 : 1)} MB): ` +
    `API ${f.submitStatus} in ${f.msTo202.toFixed(0)} ms, ${outcome}; RSS ${f.baselineRssMb.toFixed(0)} → peak ${f.peakRssMb.toFixed(0)} MB (+${f.growthMb.toFixed(1)} MB at ${(f.peakAtMs / 1000).toFixed(1)} s)`
  );
}

export async function runKybWorkerBench(input: KybWorkerBenchInput): Promise<KybWorkerBenchResult> {
  const { log } = input;
  const [warmUpBusinessId, measuredBusinessId] = input.businessIds;
  const pg = new CountedClient({ connectionString: input.databaseUrl });
  await pg.connect();
  try {
    // 1. Nothing but these applications for the worker: the API part's queued -HOLD applications
    //    (and their outbox rows) would be forwarded, the submitted ones refreshed. The provider's
    //    latency fault from the onboarding part is cleared.
    const setAsideApplications = await pg.query(`UPDATE kyb_applications SET status = 'reviewed' WHERE status IN ('queued', 'submitted')`);
    const droppedOutbox = await pg.query('DELETE FROM outbox');
    const setAside = { applications: setAsideApplications.rowCount ?? 0, outboxRows: droppedOutbox.rowCount ?? 0 };
    await fetch(`${input.providerUrl}/_sandbox/faults`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
    await pg.query(`UPDATE pobo_businesses SET agreement_status = 'accepted', kyb_status = 'not_started' WHERE id = ANY($1)`, [input.businessIds]);
    // Built before the worker starts: 60 MB of JSON is the bench's memory, not the worker's.
    const body = applicationBody('RC-BENCH-WORKER-HOLD');
    const warmUpBody = applicationBody('RC-BENCH-WARMUP-HOLD', WARM_UP_BYTES);
    input.checkAborted();

    // 2. The worker, started and left idle (its periodic jobs run once and find nothing).
    const worker = await input.startWorker();
    await sleep(IDLE_BEFORE_BASELINE_MS);
    input.checkAborted();
    const startedRssMb = rssMb(worker.pid);
    log(
      `kyb worker pid ${worker.pid}: ${startedRssMb.toFixed(0)} MB when started and idle (${setAside.applications} earlier applications and ${setAside.outboxRows} outbox rows set aside)`,
    );

    // 3. Warm-up: a small application, so that what is measured next is not the first use of the
    //    worker's HTTP client. Set aside once forwarded, so that the worker does not poll it.
    const warmUp = await forwardOne(pg, input, worker, warmUpBusinessId, warmUpBody);
    log(`kyb worker warm-up, ${describe(warmUp)}`);
    if (warmUp.applicationId) await pg.query(`UPDATE kyb_applications SET status = 'reviewed' WHERE id = $1`, [warmUp.applicationId]);

    // 4. The 45 MB application, from an idle baseline.
    let measured: KybWorkerBenchResult['measured'];
    if (warmUp.finalStatus === 'submitted') {
      await sleep(IDLE_BEFORE_BASELINE_MS);
      input.checkAborted();
      const hwmResetAtBaseline = resetHwm(worker.pid);
      const forwarding = await forwardOne(pg, input, worker, measuredBusinessId, body);
      const hwm = worker.exited() ? NaN : hwmMb(worker.pid);
      measured = { ...forwarding, hwmMb: hwm, hwmResetAtBaseline };
      log(`kyb worker forwarding ${describe(forwarding)}, VmHWM ${hwm.toFixed(0)} MB${hwmResetAtBaseline ? ' since the baseline' : ' since start-up'}`);
    }
    const workerExit = worker.exited() ?? null;
    const failed = measured ?? warmUp;
    if (failed.finalStatus !== 'submitted') log(`kyb worker output (tail):\n${worker.outputTail()}`);

    const allowedMb = measured ? KYB_WORKER_TARGETS.growthPerLargestDocument * measured.documents.largestMb : NaN;
    const forwarded = measured?.finalStatus === 'submitted';
    return {
      setAside,
      workerPid: worker.pid,
      startedRssMb,
      warmUp,
      measured,
      workerExit,
      targets: [
        {
          name: 'Worker RSS growth forwarding 45 MB',
          target: `< ${KYB_WORKER_TARGETS.growthPerLargestDocument}× largest document, submitted < ${KYB_WORKER_TARGETS.forwardTimeoutS} s`,
          measured: measured
            ? `+${measured.growthMb.toFixed(1)} MB (${measured.baselineRssMb.toFixed(0)} → ${measured.peakRssMb.toFixed(0)} MB, VmHWM ${measured.hwmMb.toFixed(0)}), ` +
              `limit ${allowedMb.toFixed(1)} MB for ${measured.documents.largestMb.toFixed(1)} MB documents, ` +
              (forwarded ? `submitted in ${(measured.msToForward! / 1000).toFixed(1)} s` : measured.finalStatus)
            : `not measured: the warm-up application was ${warmUp.finalStatus}`,
          pass: forwarded && measured!.documents.count > 0 && measured!.growthMb < allowedMb,
        },
      ],
    };
  } finally {
    await pg.end();
  }
}

/** Memory while the worker forwards one 45 MB application, its only work. */
export const runKybWorkerPart: BenchPart = async (d) => {
  log('');
  log(`worker node flags: ${d.workerNodeArgs.length > 0 ? d.workerNodeArgs.join(' ') : 'none'}`);
  const [warmUpBusinessId, measuredBusinessId] = d.businessIds.slice(200, 202);
  if (measuredBusinessId === undefined) throw new Error('the KYB worker part needs at least 202 seeded businesses');
  let worker: Started | undefined;
  const kybWorker = await runKybWorkerBench({
    apiUrl: d.servers.api.url,
    apiKey: d.apiKey,
    databaseUrl: d.databaseUrl,
    providerUrl: d.provider.url,
    businessIds: [warmUpBusinessId, measuredBusinessId],
    startWorker: async () => {
      const started = await d.startWorker('worker', { exitIsMeasured: true });
      worker = started;
      return { pid: pidOf(started), exited: started.exited, outputTail: () => `${started.stdoutTail()}${started.stderrTail()}` };
    },
    checkAborted,
    log,
  });
  if (worker) await stopChild(worker.child);
  log(
    `(KYB worker target: RSS growth < ${KYB_WORKER_TARGETS.growthPerLargestDocument}× the largest document, forwarded within ${KYB_WORKER_TARGETS.forwardTimeoutS} s)`,
  );
  return { targets: kybWorker.targets, results: { kybWorker } };
};
