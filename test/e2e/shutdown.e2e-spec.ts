import { ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { MerchantsService } from '../../src/modules/auth/merchants.service';
import { RawConnection, requestHead } from '../support/raw-http';
import { freePort } from '../support/free-port';
import { startTestApp } from '../support/test-app';
import { createTestDatabase, TestDatabase } from '../support/test-database';

const IDLE_TIMEOUT_MS = 1_000;
const SHUTDOWN_TIMEOUT_MS = 5_000;

/** The API as its own process (`src/main.ts`), stopped with SIGTERM like an orchestrator does. */
describe('Graceful shutdown', () => {
  let db: TestDatabase;
  let api: ChildProcess;
  let apiKey: string;
  let stdout = '';
  let stderr = '';
  /** Chosen by the OS for each start: a fixed port can be any outgoing connection's local port at that moment. */
  let port: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    const helper = await startTestApp(db.url);
    apiKey = (await helper.app.get(MerchantsService).createMerchant('Shutdown')).apiKey;
    await helper.close();
  });

  beforeEach(async () => {
    stdout = stderr = '';
    port = await freePort();
    api = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: `${__dirname}/../..`,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: db.url,
        PORT: String(port),
        BODY_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    api.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health/live`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`API did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterEach(() => {
    if (api && api.exitCode === null && api.signalCode === null) api.kill('SIGKILL');
  });

  afterAll(async () => {
    await db?.drop();
  });

  /** Nest re-raises the signal once its shutdown hooks are done, so a clean stop ends by SIGTERM. */
  const exitOf = (child: ChildProcess) =>
    new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );

  /** Log lines at error level or above (pino: 50 error, 60 fatal). */
  const errorLines = () => stdout.split('\n').filter((line) => /"level":(5|6)0/.test(line));

  it('listens on loopback only unless HOST says otherwise: development keys are not served to the network', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
    expect(external).toBeDefined();
    const answer = await fetch(`http://${external}:${port}/health/live`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(answer).toBe('refused');
    expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
  });

  it('lets an in-flight request finish on SIGTERM, then exits cleanly', async () => {
    const body = JSON.stringify({ businessName: 'Slow Sender Ltd', email: 'slow@example.com', phoneNumber: '+2348012345678', country: 'NG' });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/merchant/pobo/users',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': apiKey },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM, the rest later: the request is in flight during shutdown.
      req.write(body.slice(0, 20));
      setTimeout(() => {
        api.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 200);
    });
    const exited = exitOf(api);

    const result = await answer;
    const answeredAt = Date.now();
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body).response.businessName).toBe('Slow Sender Ltd');
    const exit = await exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(exit.at).toBeGreaterThanOrEqual(answeredAt);
    expect(stderr).not.toMatch(/error/i);
    expect(errorLines()).toEqual([]);
  });

  it('does not wait for a stalled body or an idle connection: exits within the budget, logging no error', async () => {
    // The finding: Content-Length 100 and a body of "{" kept the process up until the client left.
    const stalled = new RawConnection(port);
    await stalled.write(
      requestHead('POST', '/api/merchant/pobo/users', [
        ['Content-Type', 'application/json'],
        ['Content-Length', '100'],
        ['x-api-key', apiKey],
      ]),
    );
    await stalled.write('{');
    const idle = new RawConnection(port);
    await idle.write(requestHead('GET', '/health/live', []));
    expect((await idle.answer).status).toBe(200);

    const exited = exitOf(api);
    const signalledAt = Date.now();
    api.kill('SIGTERM');
    const exit = await exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    // The stalled body is cut by the body deadline, well inside the shutdown budget.
    expect(exit.at - signalledAt).toBeLessThan(IDLE_TIMEOUT_MS + 2_000);
    const answer = await stalled.answer.catch(() => undefined);
    if (answer) expect(answer.status).toBe(408);
    await Promise.all([stalled.closed, idle.closed]);
    expect(errorLines()).toEqual([]);
    expect(stdout).not.toMatch(/Error: aborted/);
  });
});
