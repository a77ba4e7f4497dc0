import { ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { MerchantsService } from '../../src/modules/auth/merchants.service';
import { startTestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const PORT = 39_000 + (process.pid % 1000);

/** The API as its own process (`src/main.ts`), stopped with SIGTERM like an orchestrator does. */
describe('Graceful shutdown', () => {
  let db: TestDatabase;
  let api: ChildProcess;
  let apiKey: string;
  let stderr = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    const helper = await startTestApp(db.url);
    apiKey = (await helper.app.get(MerchantsService).createMerchant('Shutdown')).apiKey;
    await helper.close();
    api = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, PORT: String(PORT) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    api.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/health/live`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`API did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    if (api && api.exitCode === null) api.kill('SIGKILL');
    await db?.drop();
  });

  it('lets an in-flight request finish on SIGTERM, then exits cleanly', async () => {
    const body = JSON.stringify({ businessName: 'Slow Sender Ltd', email: 'slow@example.com', phoneNumber: '+2348012345678', country: 'NG' });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: PORT, method: 'POST', path: '/api/merchant/pobo/users', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': apiKey } },
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
    let answeredAt = 0;
    // Nest re-raises the signal once its shutdown hooks are done, so a clean stop ends by SIGTERM.
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      api.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );

    const result = await answer;
    answeredAt = Date.now();
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body).response.businessName).toBe('Slow Sender Ltd');
    const exit = await exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(exit.at).toBeGreaterThanOrEqual(answeredAt);
    expect(stderr).not.toMatch(/error/i);
  });
});
