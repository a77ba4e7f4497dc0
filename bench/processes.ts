/**
 * The bench's child processes (the API, the reference, the workers, the sandboxes): every child
 * is tracked and killed on any exit path; one that exits on its own stops the run unless its exit
 * is what a part measures.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { HOST, ROOT_DIR } from './settings';

export interface Started {
  name: string;
  child: ChildProcess;
  stderrTail: () => string;
  /** Whether stdout has printed this text so far (only for the texts startChild was asked to watch for). */
  printed: (text: string) => boolean;
  /** The last lines of stdout, when piped. */
  stdoutTail: () => string;
  /** How the child exited (`code 1`, `SIGKILL`), once it has. */
  exited: () => string | undefined;
  /** How many lines of stdout so far contain `text` (only for the texts startChild was asked to count). */
  count: (text: string) => number;
  /** The last such line (its first 500 characters). */
  lastCounted: (text: string) => string | undefined;
}

const children = new Set<ChildProcess>();
/** Children the bench is stopping on purpose: their exit is not a failure. */
const stopping = new Set<ChildProcess>();
export const abort = new AbortController();
/** Called when the run stops early (the load in progress, so that it ends now). */
const onStop = new Set<() => void>();

export function whenStopping(stop: () => void): () => void {
  onStop.add(stop);
  return () => onStop.delete(stop);
}

export function stopEverything(reason: string): void {
  if (abort.signal.aborted) return;
  process.stderr.write(`\nbench: stopping (${reason})\n`);
  abort.abort(new Error(reason));
  for (const stop of onStop) stop();
  // If cleanup itself hangs, leave anyway; the 'exit' hook still kills the children.
  setTimeout(() => process.exit(1), 20_000).unref();
}
process.once('SIGINT', () => stopEverything('SIGINT'));
process.once('SIGTERM', () => stopEverything('SIGTERM'));
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Children get only what they need, so a stray variable in the caller's shell cannot skew a run. */
export function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[name]) env[name] = process.env[name];
  return { ...env, ...vars };
}

export function startChild(
  name: string,
  script: string,
  vars: Record<string, string>,
  nodeArgs: string[] = [],
  options: { watchStdout?: string[]; countStdout?: readonly string[]; exitIsMeasured?: boolean } = {},
): Started {
  // node directly (no npm wrapper), so the pid is the server's and /proc figures are its own.
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT_DIR,
    env: childEnv(vars),
    stdio: ['ignore', options.watchStdout || options.countStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  children.add(child);
  let tail = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4_000);
  });
  // stdout, when watched, is read as it comes (a full pipe would block the child): only a tail is
  // kept, and whether each watched text has appeared.
  let stdoutTail = '';
  const seen = new Set<string>();
  // Counted texts are looked for in whole lines (the last, unfinished one waits for the next chunk).
  const counts = new Map<string, number>();
  const lastCounted = new Map<string, string>();
  let partialLine = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const recent = stdoutTail.slice(-200) + chunk;
    for (const text of options.watchStdout ?? []) if (recent.includes(text)) seen.add(text);
    stdoutTail = (stdoutTail + chunk).slice(-4_000);
    if (options.countStdout) {
      const lines = (partialLine + chunk).split('\n');
      partialLine = lines.pop() ?? '';
      for (const line of lines) {
        for (const text of options.countStdout) {
          if (!line.includes(text)) continue;
          counts.set(text, (counts.get(text) ?? 0) + 1);
          lastCounted.set(text, line.slice(0, 500));
        }
      }
    }
  });
  let exit: string | undefined;
  child.once('exit', (code, signal) => {
    children.delete(child);
    exit = signal ?? `code ${code}`;
    // A measured child's crash is a result (its measurement fails), not a reason to stop the run.
    if (!abort.signal.aborted && !stopping.has(child) && !options.exitIsMeasured) {
      stopEverything(`${name} exited unexpectedly (${exit})${tail ? `:\n${tail}` : ''}`);
    }
  });
  return {
    name,
    child,
    stderrTail: () => tail,
    printed: (text) => seen.has(text),
    stdoutTail: () => stdoutTail,
    exited: () => exit,
    count: (text) => counts.get(text) ?? 0,
    lastCounted: (text) => lastCounted.get(text),
  };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(5_000, false).then(() => false)])) return;
  child.kill('SIGKILL');
  await Promise.race([exited, sleep(2_000, false)]);
}

export async function waitReady(server: Started, url: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    checkAborted();
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited before it was ready:\n${server.stderrTail()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${server.name} not ready after 30s:\n${server.stderrTail()}`);
    await sleep(200);
  }
}

/** Waits for a child to print `text` on stdout (one of the texts startChild was asked to watch for). */
export async function waitPrinted(server: Started, text: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    checkAborted();
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited before it printed '${text}':\n${server.stderrTail()}`);
    if (server.printed(text)) return;
    if (Date.now() > until) throw new Error(`${server.name} did not print '${text}' within 30s:\n${server.stdoutTail()}${server.stderrTail()}`);
    await sleep(50);
  }
}

export function pidOf(server: Started): number {
  if (server.child.pid === undefined) throw new Error(`${server.name} has no pid`);
  return server.child.pid;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolvePromise(address.port) : reject(new Error('no port'))));
    });
  });
}

export function checkAborted(): void {
  abort.signal.throwIfAborted();
}

export function log(message: string): void {
  process.stdout.write(`${message}\n`);
}
