import { freePort } from './free-port';
import { ChildProcess, spawn } from 'node:child_process';
import { sleep } from './poll';

/**
 * The API (`src/main.ts`) or the worker (`src/worker.ts`) as its own process, as production runs
 * it: from the build of the code under test (`dist/`, made once per run by the suites' global
 * set-up), which boots in about a third of the time a TypeScript loader takes. Crash suites start
 * dozens of these.
 */
export interface ApiProcess {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs, nothing in flight finishes. */
  kill(): Promise<void>;
}

export async function spawnApi(databaseUrl: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const ready = () =>
    fetch(`${baseUrl}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
  return spawnProcess('API process', 'dist/src/main.js', { LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, PORT: String(port), ...env }, baseUrl, ready, 100);
}

/** The worker as its own process (`src/worker.ts`), as production runs it; ready once it logs that it started. */
export async function spawnWorker(databaseUrl: string, env: Record<string, string>): Promise<ApiProcess> {
  return spawnProcess(
    'worker process',
    'dist/src/worker.js',
    { LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, ...env },
    '',
    (output) => output.includes('worker started'),
    50,
  );
}

/** Runs `entry` in its own Node process and waits up to 30 s, every `pollMs`, for `ready`. */
async function spawnProcess(
  what: string,
  entry: string,
  env: Record<string, string>,
  baseUrl: string,
  ready: (output: string) => boolean | Promise<boolean>,
  pollMs: number,
): Promise<ApiProcess> {
  let output = '';
  const child = spawn(process.execPath, [entry], {
    cwd: `${__dirname}/../..`,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A process a suite forgot would outlive it, working on (and loading the machine for every
  // later suite): it goes when the test process goes, whatever the suite did.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!(await ready(output))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${what} did not start: ${output}`);
    }
    await sleep(pollMs);
  }
  return {
    baseUrl,
    child,
    output: () => output,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
