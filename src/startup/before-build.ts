import { ConfigError, loadConfig } from '../config/app.config';
import { assertDependenciesReachable, DependenciesUnavailableError } from './preflight';

/**
 * First step of `npm start`, run from source before the build: the build takes ten seconds or
 * more, and a missing PostgreSQL or Redis (or a wrong variable) should be said before that, not
 * after. `dev.ts` checks again once built, since a service can stop in between.
 */
async function main(): Promise<void> {
  await assertDependenciesReachable(loadConfig(), { databaseMayBeMissing: true });
}

main().catch((err: unknown) => {
  const expected = err instanceof ConfigError || err instanceof DependenciesUnavailableError;
  process.stderr.write(`${expected ? err.message : `preflight failed: ${(err as Error).stack ?? String(err)}`}\n`);
  process.exit(1);
});
