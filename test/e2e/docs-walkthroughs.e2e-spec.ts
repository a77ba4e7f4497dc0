import { spawn } from 'node:child_process';
import { startAppAtPublicUrl } from '../support/browser';
import { startStack, Stack } from '../support/stack';
import { documentationFiles, REPOSITORY, walkthroughOf } from '../support/walkthroughs';

/** How long one file's walk-throughs may take: the sandboxes below are quick, so this is only a hang. */
const FILE_TIMEOUT_MS = 120_000;

/**
 * Every walk-through in README.md and docs/ runs as written (the blocks marked `bash runnable`,
 * in order, one shell per file, with `set -e`), against a service like the one `npm start` runs:
 * the API at a public URL, the worker, the four sandboxes. Each `# → …` line is checked against
 * what the commands before it printed. Only `BASE` (the API's URL) and the database the operator
 * commands use differ from a reader's machine.
 */
describe('Walk-throughs in the documentation', () => {
  let stack: Stack;
  const walkthroughs = documentationFiles()
    .map(walkthroughOf)
    .filter((walkthrough) => walkthrough.blocks > 0);

  beforeAll(async () => {
    stack = await startStack({
      name: 'docs',
      sandboxes: { reviewDelayMs: 200, payoutDelayMs: 50 },
      crossBorder: { settlementStepMs: 50 },
      worker: true,
      startApp: startAppAtPublicUrl,
      env: { PERIODIC_JOB_INTERVAL_MS: '300' },
    });
  });

  afterAll(() => stack?.close());

  it('has runnable walk-throughs in the README and the API guide', () => {
    expect(walkthroughs.map((walkthrough) => walkthrough.file)).toEqual(expect.arrayContaining(['README.md', 'docs/api.md']));
    for (const walkthrough of walkthroughs) expect(walkthrough.expectations).toBeGreaterThan(0);
  });

  it.each(walkthroughs.map((walkthrough) => [walkthrough.file, walkthrough] as const))(
    '%s runs as written',
    async (_file, walkthrough) => {
      const result = await runBash(walkthrough.script, {
        ...process.env,
        ...stack.env,
        DATABASE_URL: stack.db.url,
        BASE: stack.t.baseUrl,
      });
      if (result.code !== 0)
        throw new Error(`${walkthrough.file} stopped (exit ${result.code}):\n${result.stderr}\n--- stdout:\n${result.stdout.slice(-4000)}`);
    },
    FILE_TIMEOUT_MS + 10_000,
  );
});

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: REPOSITORY, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${FILE_TIMEOUT_MS} ms)`;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
