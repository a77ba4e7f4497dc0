/**
 * KYB worker part of `npm run bench`: the memory of the worker process (`dist/src/worker.js`)
 * while it forwards one 45 MB application (six documents of 7.5 MB) to the verification
 * provider. The worker reads each document from PostgreSQL one 512 KiB piece at a time and
 * streams it with `PUT /v1/documents/:id`, so what it holds is a piece or a few, not a document
 * and certainly not the application: its RSS growth must stay under twice the largest document.
 *
 * The application measured is the only work the worker has: earlier applications (the API part's
 * -HOLD submissions, the polled ones) are set aside before it starts, it is started and left idle
 * before the baseline is taken, and the application is submitted through the API only then.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.service';
import { applicationBody, MiB, post, rssMb } from './kyb';

/** Growth allowed, in largest documents; time allowed for the application to reach `submitted`. */
export const KYB_WORKER_TARGETS = { growthPerLargestDocument: 2, forwardTimeoutS: 60 };

const IDLE_BEFORE_BASELINE_MS = 2_000;
const SAMPLE_MS = 5;
const POLL_MS = 50;
/** The RSS timeline kept in the results: the highest sample of each slice of this length. */
const TIMELINE_SLICE_MS = 100;

export interface StartedWorker {
  pid: number;
  /** The last lines the worker logged (stdout and stderr), for a failure report. */
  outputTail: () => string;
}

export interface KybWorkerBenchInput {
  apiUrl: string;
  apiKey: string;
  databaseUrl: string;
  providerUrl: string;
  /** A business of the API key's merchant that no earlier part of the bench used. */
  businessId: string;
  /** Starts the built worker and resolves once it has logged `worker started`. */
  startWorker: () => Promise<StartedWorker>;
  /** Throws once the run is being stopped (Ctrl-C, deadline, a child that died). */
  checkAborted: () => void;
  log: (message: string) => void;
}

export interface KybWorkerBenchResult {
  /** Applications set aside (queued or submitted → reviewed) and outbox rows dropped before the worker started. */
  setAside: { applications: number; outboxRows: number };
  applicationId?: string;
  submitStatus: number;
  msTo202: number;
  /** From the API's 202 to `kyb_applications.status = 'submitted'` (outbox relay, six PUTs, POST). */
  msToForward?: number;
  finalStatus: string;
  lastError: string | null;
  submitAttempts: number;
  documents: { count: number; largestMb: number; totalMb: number };
  workerPid: number;
  baselineRssMb: number;
  peakRssMb: number;
  /** Milliseconds after the baseline at which the peak was sampled. */
  peakAtMs: number;
  growthMb: number;
  /** VmHWM at the end: the kernel's own high-water mark, a cross-check of the sampling (reset at the baseline when allowed). */
  hwmMb: number;
  /** Whether VmHWM was reset at the baseline; if not, it covers the worker's start-up too. */
  hwmResetAtBaseline: boolean;
  samples: number;
  /** [ms after the baseline, highest RSS MB in that slice], one entry per slice. */
  rssTimeline: [number, number][];
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
  return match ? Number(match[1]) / 1024 : 0;
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
  return {
    stop: () => {
      clearInterval(timer);
      return { peakMb, peakAtMs, samples, timeline: [...slices.entries()].map(([at, mb]) => [at, Math.round(mb * 10) / 10]) };
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function runKybWorkerBench(input: KybWorkerBenchInput): Promise<KybWorkerBenchResult> {
  const { log } = input;
  const pg = new Client({ connectionString: input.databaseUrl });
  await pg.connect();
  try {
    // 1. Nothing but the measured application for the worker: the API part's queued -HOLD
    //    applications (and their outbox rows) would be forwarded, the submitted ones refreshed.
    //    The provider's latency fault from the onboarding part is cleared.
    const setAsideApplications = await pg.query(`UPDATE kyb_applications SET status = 'reviewed' WHERE status IN ('queued', 'submitted')`);
    const droppedOutbox = await pg.query('DELETE FROM outbox');
    const setAside = { applications: setAsideApplications.rowCount ?? 0, outboxRows: droppedOutbox.rowCount ?? 0 };
    await fetch(`${input.providerUrl}/_sandbox/faults`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
    await pg.query(`UPDATE pobo_businesses SET agreement_status = 'accepted', kyb_status = 'not_started' WHERE id = $1`, [input.businessId]);
    // Built before the worker starts: 60 MB of JSON is the bench's memory, not the worker's.
    const body = applicationBody('RC-BENCH-WORKER-HOLD');
    input.checkAborted();

    // 2. The worker, started and left idle (its periodic jobs run once and find nothing).
    const worker = await input.startWorker();
    await sleep(IDLE_BEFORE_BASELINE_MS);
    input.checkAborted();
    const hwmResetAtBaseline = resetHwm(worker.pid);
    const baselineRssMb = rssMb(worker.pid);
    log(`kyb worker pid ${worker.pid}: idle RSS ${baselineRssMb.toFixed(0)} MB (${setAside.applications} earlier applications and ${setAside.outboxRows} outbox rows set aside)`);

    // 3. Submit through the API, then wait for the worker to have forwarded it.
    const sampler = sampleRss(worker.pid);
    let sampled: ReturnType<ReturnType<typeof sampleRss>['stop']> | undefined;
    const stopSampling = () => (sampled ??= sampler.stop());
    try {
      const submitted = performance.now();
      const answer = await post(`${input.apiUrl}${POBO_USERS_PATH}/${input.businessId}/onboarding`, input.apiKey, body);
      const msTo202 = performance.now() - submitted;
      const after202 = performance.now();
      let applicationId: string | undefined;
      let row: { id: string; status: string; last_error: string | null; submit_attempts: number } | undefined;
      let msToForward: number | undefined;
      if (answer.status === 202) {
        const until = after202 + KYB_WORKER_TARGETS.forwardTimeoutS * 1000;
        for (;;) {
          input.checkAborted();
          const { rows } = await pg.query<{ id: string; status: string; last_error: string | null; submit_attempts: number }>(
            'SELECT id, status, last_error, submit_attempts FROM kyb_applications WHERE business_id = $1 ORDER BY created_at DESC LIMIT 1',
            [input.businessId],
          );
          row = rows[0];
          applicationId = row?.id;
          if (row && row.status !== 'queued') {
            if (row.status === 'submitted') msToForward = performance.now() - after202;
            break;
          }
          if (performance.now() > until) break;
          await sleep(POLL_MS);
        }
      }
      const { peakMb, peakAtMs, samples, timeline } = stopSampling();
      const hwm = hwmMb(worker.pid);
      const docs = await pg.query<{ count: number; largest: string | null; total: string | null }>(
        'SELECT count(*)::int AS count, max(size_bytes) AS largest, sum(size_bytes) AS total FROM kyb_documents WHERE application_id = $1',
        [applicationId ?? ''],
      );
      const documents = {
        count: docs.rows[0].count,
        largestMb: Number(docs.rows[0].largest ?? 0) / MiB,
        totalMb: Number(docs.rows[0].total ?? 0) / MiB,
      };
      const finalStatus = answer.status !== 202 ? 'not accepted' : (row?.status ?? 'missing');
      const growthMb = peakMb - baselineRssMb;
      const allowedMb = KYB_WORKER_TARGETS.growthPerLargestDocument * documents.largestMb;
      const forwarded = finalStatus === 'submitted';
      log(
        `kyb worker forwarding ${documents.count} documents (${documents.totalMb.toFixed(1)} MB, largest ${documents.largestMb.toFixed(1)} MB): ` +
          `API ${answer.status} in ${msTo202.toFixed(0)} ms, ${forwarded ? `submitted ${msToForward!.toFixed(0)} ms after the 202` : `status ${finalStatus}${row?.last_error ? ` (${row.last_error})` : ''}`}; ` +
          `RSS ${baselineRssMb.toFixed(0)} → peak ${peakMb.toFixed(0)} MB (+${growthMb.toFixed(1)} MB at ${(peakAtMs / 1000).toFixed(1)} s), VmHWM ${hwm.toFixed(0)} MB${hwmResetAtBaseline ? ' since the baseline' : ' since start-up'}`,
      );
      if (!forwarded) log(`kyb worker output (tail):\n${worker.outputTail()}`);
      return {
        setAside,
        applicationId,
        submitStatus: answer.status,
        msTo202,
        msToForward,
        finalStatus,
        lastError: row?.last_error ?? null,
        submitAttempts: row?.submit_attempts ?? 0,
        documents,
        workerPid: worker.pid,
        baselineRssMb,
        peakRssMb: peakMb,
        peakAtMs,
        growthMb,
        hwmMb: hwm,
        hwmResetAtBaseline,
        samples,
        rssTimeline: timeline,
        targets: [
          {
            name: 'Worker RSS growth forwarding 45 MB',
            target: `< ${KYB_WORKER_TARGETS.growthPerLargestDocument}× largest document, submitted < ${KYB_WORKER_TARGETS.forwardTimeoutS} s`,
            measured:
              `+${growthMb.toFixed(1)} MB (${baselineRssMb.toFixed(0)} → ${peakMb.toFixed(0)} MB, VmHWM ${hwm.toFixed(0)}), ` +
              `limit ${allowedMb.toFixed(1)} MB for ${documents.largestMb.toFixed(1)} MB documents, ` +
              (forwarded ? `submitted in ${(msToForward! / 1000).toFixed(1)} s` : `status ${finalStatus}`),
            pass: forwarded && documents.count > 0 && growthMb < allowedMb,
          },
        ],
      };
    } finally {
      stopSampling();
    }
  } finally {
    await pg.end();
  }
}
