import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../modules/metrics';
import { JobQueues, JobsModule } from '../jobs';
import { NairaCollectionsService, NairaModule } from '../modules/naira';
import { RedisModule } from '../redis/redis.module';
import { assertDependenciesReachable } from '../startup/preflight';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run --silent naira:close -- --business pobo_… --note "Why, for the records"`;

/**
 * `naira:close`: closes a business's own Naira account. Every transfer into it from then on is
 * returned to its sender; the business shows no account any more. Prints one line of JSON.
 */
async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { business: { type: 'string' }, note: { type: 'string' } }, strict: true });
  const note = values.note?.trim();
  if (!values.business || !note) throw new UsageError(USAGE);
  const config = loadConfig();
  await assertDependenciesReachable(config);
  const app = await NestFactory.createApplicationContext(
    {
      module: class NairaCliModule {},
      imports: [ConfigModule.forRoot(config), DatabaseModule, MetricsModule, RedisModule, JobsModule.forRoot({ worker: false }), NairaModule],
    },
    { logger: false },
  );
  try {
    const { accountNumber } = await app.get(NairaCollectionsService).close(values.business, note);
    process.stdout.write(`${JSON.stringify({ poboUserId: values.business, accountNumber, status: 'closed', note })}\n`);
  } finally {
    // Queues still connecting when the context closes would fail the commands they had queued.
    await app.get(JobQueues).ready();
    await app.close();
  }
}

runCli(() => main(process.argv.slice(2)));
