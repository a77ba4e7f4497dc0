import { ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import { acceptAgreementDirectly, kybApplication } from './support/kyb-fixtures';
import { eventually, sleep } from './support/poll';
import { KybStack, startKybStack } from './support/kyb-stack';
import { Sandbox } from './support/sandboxes';
import { createBusiness, http, TestApp } from './support/test-app';

const JOB_LOCK_MS = 2_000;

/** Worker processes as in production (`src/worker.ts`), one of them killed with SIGKILL mid-job. */
describe('KYB worker crash', () => {
  let stack: KybStack;
  let t: TestApp;
  let verification: Sandbox;
  let pg: Client;
  const workers: ChildProcess[] = [];

  const startWorker = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/worker.ts'], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, ...stack.env, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: stack.db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.push(child);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    await eventually(() => Promise.resolve(output), (o) => o.includes('worker started') || child.exitCode !== null, 30_000);
    if (child.exitCode !== null) throw new Error(`worker exited: ${output}`);
    return child;
  };

  beforeAll(async () => {
    stack = await startKybStack({
      name: 'crash',
      reviewDelayMs: 200,
      env: { PERIODIC_JOB_INTERVAL_MS: '500', JOB_LOCK_MS: String(JOB_LOCK_MS), PROVIDER_TIMEOUT_MS: '10000' },
    });
    ({ t, verification, pg } = stack);
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await stack?.close();
  });

  it('retries the job on another worker, and the provider sees one application', async () => {
    const { apiKey } = await t.createMerchant('Crash');
    const { poboUserId: id } = await createBusiness(t, apiKey, { businessName: 'Crash Ltd' });
    await acceptAgreementDirectly(pg, id);

    // The provider answers slowly, so the first worker is mid-call when it dies.
    await verification.faults({ latencyMs: 1_500 });
    const first = await startWorker();
    expect((await http(t.baseUrl, 'POST', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey, body: kybApplication('RC-CRASH-1') })).status).toBe(202);
    const [application] = (await pg.query('SELECT id FROM kyb_applications WHERE business_id = $1', [id])).rows;
    await eventually(
      async () => (await pg.query('SELECT forward_attempts FROM kyb_applications WHERE id = $1', [application.id])).rows[0].forward_attempts,
      (n: number) => n >= 1,
      10_000,
      20,
    );
    await sleep(200);
    first.kill('SIGKILL');
    await verification.faults({});

    await startWorker();
    const verified = await eventually(
      () => http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey }),
      (r) => r.body.response.kyb.status === 'verified',
      45_000,
      300,
    );
    expect(verified.body.response.kyb.status).toBe('verified');
    const seen = (await verification.state<{ applications: { reference: string }[] }>('/_sandbox/applications')).applications;
    expect(seen.filter((a) => a.reference === application.id)).toHaveLength(1);
    expect((await pg.query('SELECT forward_attempts FROM kyb_applications WHERE id = $1', [application.id])).rows[0].forward_attempts).toBeGreaterThanOrEqual(2);
  });
});
