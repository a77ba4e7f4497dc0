import { execFileSync } from 'node:child_process';

/**
 * The operator commands run the built service, as production does (`npm run ledger:verify` is
 * `node dist/…`): suites that call them get a build of the code under test, made once per run.
 */
export default function buildOnce(): void {
  if (process.env.TEST_BUILD_DONE) return;
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  process.env.TEST_BUILD_DONE = '1';
}
