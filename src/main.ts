import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { exitOnCrash } from './common/logging/crash';
import { startTracing } from './common/tracing/tracing';
import { cacheValidationRules } from './common/validation/rules-cache';
import { ConfigError, loadConfig } from './config/app.config';
import { assertDependenciesReachable, DependenciesUnavailableError } from './startup/preflight';

/**
 * Collect old-space garbage once the old generation has doubled since the last full GC. V8's own
 * factor goes up to 4×: requests in flight across two scavenges get promoted, and under a burst
 * of list pages that garbage alone took the API from ~160 to 250+ MB of RSS before a full GC
 * reclaimed it. Live old-space data is ~40 MB, so the extra full GCs are short. Set before the
 * heap grows; V8 reads it whenever it sizes the old generation.
 */
setFlagsFromString('--heap-growing-percent=100');

/** HTTP API entrypoint (`npm run start:api`). Migrations are applied by `npm start` / `npm run migration:run`. */
async function main(): Promise<void> {
  exitOnCrash('api');
  cacheValidationRules();
  const config = loadConfig();
  startTracing('merchant-payments-api', config.tracing.endpoint);
  await assertDependenciesReachable(config);
  // Loaded only once the services answer: Nest and every module take seconds to load, and a
  // missing service must be reported before that.
  const { createApp } = await import('./app.factory');
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  // Config and preflight errors are written for a person, name the variable and never contain a secret.
  if (err instanceof ConfigError || err instanceof DependenciesUnavailableError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`API failed to start\n${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
