import 'reflect-metadata';
import { exitOnCrash } from './common/logging/crash';
import { startTracing } from './common/tracing/tracing';
import { cacheValidationRules } from './common/validation/rules-cache';
import { ConfigError, loadConfig } from './config/app.config';
import { assertDependenciesReachable, DependenciesUnavailableError } from './startup/preflight';

/** Worker entrypoint (`npm run start:worker`): an application context with queue processors, no HTTP server. */
async function main(): Promise<void> {
  exitOnCrash('worker');
  cacheValidationRules();
  const config = loadConfig();
  startTracing('merchant-payments-worker', config.tracing.endpoint);
  await assertDependenciesReachable(config);
  // Loaded only once the services answer, so a missing one is reported within the probe timeout.
  const [{ NestFactory }, { Logger }, { WorkerModule }, { AppModule }, { jobsWithoutWorker }, { createRootLogger }] = await Promise.all([
    import('@nestjs/core'),
    import('nestjs-pino'),
    import('./worker.module'),
    import('./app.module'),
    import('./jobs'),
    import('./common/logging/logger.options'),
  ]);
  const logger = createRootLogger(config);
  const workerModule = WorkerModule.forRoot(config, logger);
  // Every job the API can enqueue must have a handler here, or it would wait in its queue for ever.
  const unhandled = jobsWithoutWorker(AppModule.forRoot(config, { logger }), workerModule);
  if (unhandled.length > 0) throw new Error(`the API enqueues jobs this worker does not handle: ${unhandled.join(', ')}`);
  const app = await NestFactory.createApplicationContext(workerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.get(Logger).log('worker started');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DependenciesUnavailableError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`worker failed to start\n${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
