import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from './config/app.config';
import { WorkerModule } from './worker.module';

/** Worker entrypoint (`npm run start:worker`): an application context with queue processors, no HTTP server. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.get(Logger).log('worker started');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : 'worker failed to start'}\n`);
  if (!(err instanceof ConfigError) && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
