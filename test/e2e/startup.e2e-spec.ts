import { spawn } from 'node:child_process';
import { createServer, Server, Socket } from 'node:net';

const ROOT = `${__dirname}/../..`;
const DATABASE_BASE_URL = process.env.TEST_DATABASE_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
/** A database that always exists: these processes stop before they would need the schema. */
const REACHABLE_DATABASE_URL = `${DATABASE_BASE_URL}/postgres`;
const REACHABLE_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'hunter2-do-not-print';
/**
 * The promise: what is missing is said and the process is gone within 5 s, measured from spawn to
 * exit. The entries run built, as `npm start` and `npm run start:api` run them (the suite's global
 * setup builds `dist/`); only npm start's first step runs from source, through ts-node, as it does
 * there. Run from source, ts-node's compile alone took over 3 s on a busy 2-core CI machine.
 */
const BUDGET_MS = 5_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  elapsedMs: number;
  stdout: string;
  stderr: string;
}

/** Runs an entry point the way its npm script does: a built `.js` with node, a `.ts` through ts-node. */
function runEntry(entry: string, env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  const args = entry.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only', entry] : [entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', REDIS_URL: REACHABLE_REDIS_URL, DATABASE_URL: REACHABLE_DATABASE_URL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Past any budget a failing assertion would report: a process that boots anyway is not left behind.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, elapsedMs: Date.now() - started, stdout, stderr });
    }),
  );
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Accepts connections and never answers: a hung server or a firewall that swallows packets. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What every refusal to start has in common. */
function expectPlainRefusal(run: Run): void {
  expect(run.code).toBe(1);
  expect(run.elapsedMs).toBeLessThan(BUDGET_MS);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/ECONNREFUSED \d|Error:/);
  expect(run.stderr).not.toContain(PASSWORD);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain('`docker compose up -d`');
}

describe('Starting without PostgreSQL or Redis', () => {
  it('API: names PostgreSQL, where it was looked for and how to start it, and exits within 5 s', async () => {
    const port = await closedPort();
    const run = await runEntry('dist/src/main.js', { DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/merchant_api` });

    expectPlainRefusal(run);
    expect(run.stderr).toBe(
      `PostgreSQL is not reachable at 127.0.0.1:${port} (from DATABASE_URL): connection refused (nothing is listening there). ` +
        'Start it with `docker compose up -d`, or set DATABASE_URL to a server that is running.\n',
    );
  });

  it('API: names Redis the same way (it used to start without a word)', async () => {
    const port = await closedPort();
    const run = await runEntry('dist/src/main.js', { REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${port}` });

    expectPlainRefusal(run);
    expect(run.stderr).toBe(
      `Redis is not reachable at 127.0.0.1:${port} (from REDIS_URL): connection refused (nothing is listening there). ` +
        'Start it with `docker compose up -d`, or set REDIS_URL to a server that is running.\n',
    );
  });

  it('worker: one paragraph per missing service when both are missing', async () => {
    const [databasePort, redisPort] = [await closedPort(), await closedPort()];
    const run = await runEntry('dist/src/worker.js', {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${databasePort}/merchant_api`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });

    expectPlainRefusal(run);
    const paragraphs = run.stderr.trim().split('\n\n');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toMatch(new RegExp(`^PostgreSQL is not reachable at 127\\.0\\.0\\.1:${databasePort} \\(from DATABASE_URL\\)`));
    expect(paragraphs[1]).toMatch(new RegExp(`^Redis is not reachable at 127\\.0\\.0\\.1:${redisPort} \\(from REDIS_URL\\)`));
  });

  it('a server that accepts and never answers: "no answer within 2 s", still within 5 s', async () => {
    const silent = await silentServer();
    try {
      const run = await runEntry('dist/src/main.js', {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${silent.port}/merchant_api`,
        REDIS_URL: `redis://127.0.0.1:${silent.port}`,
      });

      expectPlainRefusal(run);
      expect(run.stderr).toContain(`PostgreSQL is not reachable at 127.0.0.1:${silent.port} (from DATABASE_URL): no answer within 2 s.`);
      expect(run.stderr).toContain(`Redis is not reachable at 127.0.0.1:${silent.port} (from REDIS_URL): no answer within 2 s.`);
    } finally {
      await silent.close();
    }
  });

  it('npm start (dev.js): reports once, before starting any role', async () => {
    const port = await closedPort();
    const run = await runEntry('dist/src/dev.js', { DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/merchant_api` });

    expectPlainRefusal(run);
    expect(run.stderr.match(/PostgreSQL is not reachable/g)).toHaveLength(1);
    expect(run.stderr).not.toContain('starting');
  });

  it("npm start's first step (before-build.ts, run from source before the build) says the same", async () => {
    const port = await closedPort();
    const run = await runEntry('src/startup/before-build.ts', { REDIS_URL: `redis://127.0.0.1:${port}` });

    expectPlainRefusal(run);
    expect(run.stderr).toContain(`Redis is not reachable at 127.0.0.1:${port} (from REDIS_URL)`);
  });

  it('says a missing database is missing, with how to create it, rather than that PostgreSQL is down', async () => {
    const run = await runEntry('dist/src/main.js', { DATABASE_URL: `${DATABASE_BASE_URL}/merchant_api_startup_test_absent` });

    expect(run.code).toBe(1);
    expect(run.elapsedMs).toBeLessThan(BUDGET_MS);
    expect(run.stderr).toMatch(/^PostgreSQL at \S+ \(from DATABASE_URL\) has no database "merchant_api_startup_test_absent"\. Run `npm start` once/);
  });
});
