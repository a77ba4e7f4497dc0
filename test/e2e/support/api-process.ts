import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { sleep } from './poll';

/** The API as its own process (`src/main.ts`), as production runs it. */
export interface ApiProcess {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs, nothing in flight finishes. */
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function spawnApi(databaseUrl: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
    cwd: `${__dirname}/../../..`,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${baseUrl}/health/live`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API process did not start: ${output}`);
    }
    await sleep(100);
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

/** The worker as its own process (`src/worker.ts`), as production runs it; ready once it logs that it started. */
export async function spawnWorker(databaseUrl: string, env: Record<string, string>): Promise<ApiProcess> {
  let output = '';
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/worker.ts'], {
    cwd: `${__dirname}/../../..`,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('worker started')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker process did not start: ${output}`);
    }
    await sleep(50);
  }
  return {
    baseUrl: '',
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
