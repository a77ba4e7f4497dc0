/**
 * Load (autocannon) and what a run cost: the server's CPU per request from /proc, the cores each
 * process used, the machine's other load; the summary table and the targets' lines.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { DashboardScenario } from './dashboard';
import type { InternationalScenario } from './international';
import type { MoneyScenario, Target } from './money';
import type { OpsScenario } from './ops';
import type { ScaleScenario } from './scale';
import type { WebhooksScenario } from './webhooks';
import { checkAborted, log, whenStopping } from './processes';
import { CONNECTIONS, DURATION_S } from './settings';

export const CLK_TCK = clockTicks();

export type Scenario =
  'get-one' | 'list-first-page' | 'create' | MoneyScenario | DashboardScenario | InternationalScenario | WebhooksScenario | OpsScenario | ScaleScenario;
/**
 * `reference`: the plain floor; `contract`: the same plus the contract's per-request work (both
 * `reference-server.ts`); `api-unmeasured`: a second API with `OPS_METRICS=off`, for the ops part only.
 */
export type ServerName = 'reference' | 'contract' | 'api' | 'api-unmeasured';

/** The servers a read is measured on, in the order of each round: the plain reference, the contract reference, the API. */
export const READ_SERVERS = ['reference', 'contract', 'api'] as const;

/**
 * POST requests for autocannon to `path` with the merchant's key, each numbered (1, 2, …): `vary(n)`
 * gives the n-th one's JSON body and any headers of its own.
 */
export function numberedPosts(apiKey: string, path: string, vary: (n: number) => { body: unknown; headers?: Record<string, string> }): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      setupRequest: (request) => {
        const { body, headers } = vary(++n);
        return { ...request, headers: { ...request.headers, ...headers }, body: JSON.stringify(body) };
      },
    },
  ];
}
export type ReadServer = (typeof READ_SERVERS)[number];

export interface Measurement {
  scenario: Scenario;
  server: ServerName;
  round: number;
  connections: number;
  requests: number;
  durationS: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU time (user + system, all threads) the server spent per completed request. */
  cpuUsPerRequest: number;
  /** Server CPU seconds per wall-clock second during the run (1 = one core saturated). */
  serverCores: number;
  /** The bench process itself (autocannon) in cores. */
  loadGeneratorCores: number;
  /** The sandbox bank rail (a child process; payment intents and withdrawals call it) in cores. */
  railCores: number;
  /** Everything else on the machine (PostgreSQL, other people's work) in cores. */
  otherCores: number;
}

export interface Summary {
  scenario: Scenario;
  server: ServerName;
  rounds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  non2xx: number;
  errors: number;
  /** req/s of this row divided by the reference's GET-one req/s. */
  rpsVsReference: number;
  /** CPU µs/request of this row divided by the reference's GET-one CPU µs/request. */
  cpuVsReference: number;
}

export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  requests: autocannon.Request[];
}

/** The sandbox bank rail's pid, once it runs: its CPU is reported apart from "other". */
let railPid: number | undefined;

export function reportRailApart(pid: number): void {
  railPid = pid;
}

export async function load(label: string, target: LoadTarget, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  checkAborted();
  const instance = autocannon({
    url: target.url,
    connections,
    duration: seconds,
    timeout: 10,
    headers: target.headers,
    requests: target.requests,
    title: label,
  });
  const unwatch = whenStopping(() => instance.stop());
  const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
  try {
    const result = await instance;
    checkAborted();
    return result;
  } finally {
    clearTimeout(guard);
    unwatch();
  }
}

export async function measure(
  scenario: Scenario,
  server: ServerName,
  round: number,
  target: LoadTarget & { pid: number },
  { connections = CONNECTIONS, durationS = DURATION_S }: { connections?: number; durationS?: number } = {},
): Promise<Measurement> {
  await sleep(500);
  const railTicks = () => (railPid === undefined ? 0 : processTicks(railPid));
  const before = { server: processTicks(target.pid), rail: railTicks(), self: process.cpuUsage(), machine: machineTicks(), at: process.hrtime.bigint() };
  const result = await load(`${server} ${scenario} round ${round}`, target, durationS, connections);
  const after = {
    server: processTicks(target.pid),
    rail: railTicks(),
    self: process.cpuUsage(before.self),
    machine: machineTicks(),
    at: process.hrtime.bigint(),
  };

  const wallS = Number(after.at - before.at) / 1e9;
  const serverCpuS = (after.server - before.server) / CLK_TCK;
  const railCpuS = (after.rail - before.rail) / CLK_TCK;
  const selfCpuS = (after.self.user + after.self.system) / 1e6;
  const machineBusyS = (after.machine.busy - before.machine.busy) / CLK_TCK;
  const requests = result.requests.total;
  const measurement: Measurement = {
    scenario,
    server,
    round,
    connections,
    requests,
    durationS: result.duration,
    rps: requests / result.duration,
    latencyMs: {
      mean: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    cpuUsPerRequest: requests > 0 ? (serverCpuS * 1e6) / requests : NaN,
    serverCores: serverCpuS / wallS,
    loadGeneratorCores: selfCpuS / wallS,
    railCores: railCpuS / wallS,
    otherCores: Math.max(0, machineBusyS - serverCpuS - selfCpuS - railCpuS) / wallS,
  };
  log(
    `${pad(`${server} ${scenario} #${round}`, 28)} ${fmt(measurement.rps, 0).padStart(7)} req/s  p50 ${fmt(measurement.latencyMs.p50, 1)} ms  p99 ${fmt(measurement.latencyMs.p99, 1)} ms  ` +
      `${fmt(measurement.cpuUsPerRequest, 0)} µs CPU/req  cores: server ${measurement.serverCores.toFixed(2)}, autocannon ${measurement.loadGeneratorCores.toFixed(2)}, ` +
      `${measurement.railCores >= 0.005 ? `rail ${measurement.railCores.toFixed(2)}, ` : ''}other ${measurement.otherCores.toFixed(2)}` +
      (measurement.non2xx || measurement.errors ? `  non-2xx ${measurement.non2xx}, errors ${measurement.errors}` : ''),
  );
  return measurement;
}

export function summarise(runs: Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const run of runs) {
    const key = `${run.scenario}/${run.server}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows = [...groups.values()].map((group) => {
    const requests = sum(group.map((r) => r.requests));
    return {
      scenario: group[0].scenario,
      server: group[0].server,
      rounds: group.length,
      rps: mean(group.map((r) => r.rps)),
      p50Ms: mean(group.map((r) => r.latencyMs.p50)),
      p99Ms: mean(group.map((r) => r.latencyMs.p99)),
      cpuUsPerRequest: sum(group.map((r) => r.cpuUsPerRequest * r.requests)) / requests,
      non2xx: sum(group.map((r) => r.non2xx)),
      errors: sum(group.map((r) => r.errors)),
    };
  });
  // The international intent's GET one against the reference's intent route; everything else against its business route.
  const refFor = (scenario: Scenario) =>
    rows.find((r) => r.scenario === (scenario === 'intl-get-one' ? 'intl-get-one' : 'get-one') && r.server === 'reference');
  return rows.map((r) => {
    const ref = refFor(r.scenario);
    return { ...r, rpsVsReference: ref ? r.rps / ref.rps : NaN, cpuVsReference: ref ? r.cpuUsPerRequest / ref.cpuUsPerRequest : NaN };
  });
}

export function printReport(summaries: Summary[], targets: Target[], runs: Measurement[]): void {
  const header = ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ ref', 'CPU µs/req', 'CPU ÷ ref', 'non-2xx'];
  const body = summaries.map((s) => [
    s.scenario,
    s.server,
    fmt(s.rps, 0),
    fmt(s.p50Ms, 1),
    fmt(s.p99Ms, 1),
    Number.isFinite(s.rpsVsReference) ? `${s.rpsVsReference.toFixed(2)}×` : '—',
    fmt(s.cpuUsPerRequest, 0),
    Number.isFinite(s.cpuVsReference) ? `${s.cpuVsReference.toFixed(2)}×` : '—',
    String(s.non2xx + s.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log('');
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) log(line(row));
  log(
    '"÷ ref" divides by the reference server\'s GET one (same SQL, same JSON; plain Fastify + pg): its intent route for intl-get-one, its business route otherwise.',
  );
  for (const scenario of ['get-one', 'intl-get-one'] as const) {
    const ref = summaries.find((s) => s.scenario === scenario && s.server === 'reference');
    const app = summaries.find((s) => s.scenario === scenario && s.server === 'api');
    if (ref && app)
      log(`${scenario} from CPU time (ref µs/req ÷ API µs/req, steadier on a busy machine): ${(ref.cpuUsPerRequest / app.cpuUsPerRequest).toFixed(2)}×`);
  }
  const others = runs.map((r) => r.otherCores);
  if (others.length > 0)
    log(`other load on the machine during runs (PostgreSQL + everything else): ${Math.min(...others).toFixed(2)}–${Math.max(...others).toFixed(2)} cores`);
  log('');
  if (targets.length === 0) return;
  const nameWidth = Math.max(...targets.map((t) => t.name.length));
  const targetWidth = Math.max(...targets.map((t) => t.target.length));
  for (const t of targets)
    log(`${t.pass === null ? 'INFO' : t.pass ? 'PASS' : 'FAIL'}  ${t.name.padEnd(nameWidth)}  ${t.target.padEnd(targetWidth)}  measured ${t.measured}`);
}

/** utime + stime of a process (all its threads), in clock ticks. */
export function processTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm)": state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export function machineTicks(): { busy: number } {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq + (steal || 0) };
}

export function memoryField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]);
}

export function rssMb(pid: number): number {
  return memoryField(pid, 'VmRSS') / 1024;
}

function clockTicks(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function mean(values: number[]): number {
  return sum(values) / values.length;
}

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}
