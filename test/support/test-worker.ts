import { Writable } from 'node:stream';
import pino from 'pino';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../../src/config/app.config';
import { WorkerModule } from '../../src/worker.module';

/** The real worker (BullMQ processors against real Redis) in this process, with the same env as the app. */
export async function startTestWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const logStream = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, ...env });
  const worker = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(config, pino({ level: env.LOG_LEVEL === 'debug' ? 'debug' : 'warn' }, env.LOG_LEVEL === 'debug' ? process.stderr : logStream)),
    { logger: false },
  );
  await worker.init();
  return worker;
}
