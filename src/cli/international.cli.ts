import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { JobQueues, JobsModule } from '../jobs';
import { InternationalIntentsModule, InternationalSettlementService } from '../modules/international-intents';
import { RedisModule } from '../redis/redis.module';
import { assertDependenciesReachable } from '../startup/preflight';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run --silent international:reject -- --intent ipi_… --note "Why, as the merchant will read it"`;

/**
 * `npm run international:reject`: an operator rejects an international payment intent that has
 * not settled. The note becomes the intent's `adminNote`; the reserved funds go back to the
 * merchant's available balance through the pipeline's own rejection, so exactly once. Prints one
 * line of JSON on stdout.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({ args: rest, options: { intent: { type: 'string' }, note: { type: 'string' } }, strict: true });
  const note = values.note?.trim();
  if (command !== 'reject' || !values.intent || !note) throw new UsageError(USAGE);

  const config = loadConfig();
  await assertDependenciesReachable(config);
  const app = await NestFactory.createApplicationContext(
    { module: class InternationalCliModule {}, imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule, JobsModule.forRoot({ worker: false }), InternationalIntentsModule] },
    { logger: false },
  );
  try {
    const from = await app.get(InternationalSettlementService).rejectByOperator(values.intent, note);
    process.stdout.write(`${JSON.stringify({ intentId: values.intent, from, status: 'rejected', adminNote: note })}\n`);
  } finally {
    // Queues still connecting when the context closes would fail the commands they had queued.
    await app.get(JobQueues).ready();
    await app.close();
  }
}

runCli(() => main(process.argv.slice(2)));
