import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { superviseRoles, Supervisor } from './supervisor';

/** Real child processes: small scripts that live, crash once, or crash on every start. */
describe('superviseRoles', () => {
  let dir: string;
  let supervisor: Supervisor | undefined;
  const lines: string[] = [];
  const options = { firstDelayMs: 50, maxDelayMs: 400, healthyRunMs: 2_000, maxQuickExits: 3, log: (line: string) => lines.push(line) };
  const waitFor = async (check: () => boolean, ms = 10_000) => {
    for (const deadline = Date.now() + ms; !check();) {
      if (Date.now() > deadline) throw new Error(`timed out; log: ${lines.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const script = (name: string, code: string) => {
    const path = join(dir, name);
    writeFileSync(path, code);
    return path;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
    lines.length = 0;
  });
  afterEach(async () => {
    supervisor?.stop(0);
    await supervisor?.stopped;
    supervisor = undefined;
    process.exitCode = 0;
    rmSync(dir, { recursive: true, force: true });
  });

  it('restarts a role that was killed, and leaves the others running', async () => {
    const live = script('live.js', 'setInterval(() => {}, 1000);');
    supervisor = superviseRoles({ api: { script: live }, worker: { script: live } }, process.env, options);
    await waitFor(() => supervisor!.child('api')?.pid !== undefined && supervisor!.child('worker')?.pid !== undefined);
    const [api, worker] = [supervisor.child('api')!, supervisor.child('worker')!];
    api.kill('SIGKILL');
    await waitFor(() => supervisor!.child('api') !== api && supervisor!.child('api')?.pid !== undefined);
    expect(lines).toEqual(['api exited (SIGKILL); restarting it in 0.05 s']);
    expect(supervisor.child('worker')).toBe(worker);
    expect(worker.exitCode).toBeNull();
  });

  it('backs off, doubling the pause with each quick exit in a row, then stops everything', async () => {
    const crashing = script('crash.js', 'process.exit(3);');
    const live = script('live.js', 'setInterval(() => {}, 1000);');
    supervisor = superviseRoles({ api: { script: crashing }, worker: { script: live } }, process.env, options);
    await supervisor.stopped;
    expect(lines).toEqual([
      'api exited (code 3); restarting it in 0.05 s',
      'api exited (code 3); restarting it in 0.1 s',
      'api exited (code 3); restarting it in 0.2 s',
      'api exited (code 3) 4 times in a row, each within 2 s of starting; stopping',
    ]);
    expect(supervisor.child('worker')!.signalCode).toBe('SIGTERM');
    expect(process.exitCode).toBe(3);
  });

  it('starts the back-off afresh after a healthy run', async () => {
    const marker = join(dir, 'second-run');
    // Crashes at once on its first start, then after a healthy run (longer than healthyRunMs).
    const flaky = script(
      'flaky.js',
      `const fs = require('fs'); if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1); } setTimeout(() => process.exit(1), 2_200);`,
    );
    supervisor = superviseRoles({ api: { script: flaky } }, process.env, options);
    await waitFor(() => lines.length >= 2, 15_000);
    expect(existsSync(marker)).toBe(true);
    expect(lines.slice(0, 2)).toEqual(['api exited (code 1); restarting it in 0.05 s', 'api exited (code 1); restarting it in 0.05 s']);
  });
});
