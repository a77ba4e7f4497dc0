import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { toMajorUnits, toMinorUnits } from '../common/money/money';
import { loadConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../modules/metrics';
import { JobQueues, JobsModule } from '../jobs';
import { InternationalIntentsModule, InternationalRecovery, InternationalSettlementService, ReceivableOutcome } from '../modules/international-intents';
import { RedisModule } from '../redis/redis.module';
import { assertDependenciesReachable } from '../startup/preflight';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run --silent international:reject -- --intent ipi_… --note "Why, as the merchant will read it"
  npm run --silent international:receivable -- --intent ipi_… --recovered 1550750.00 --note "How it came back"
  npm run --silent international:receivable -- --intent ipi_… --write-off --note "Why it will not come back"`;

/** The NGN of a payment's receivable: what the ledger of international payments is kept in. */
const CURRENCY = 'NGN';

type Command = { name: 'reject'; intent: string; note: string } | { name: 'receivable'; intent: string; note: string; outcome: ReceivableOutcome };

function parse(argv: string[]): Command {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { intent: { type: 'string' }, note: { type: 'string' }, recovered: { type: 'string' }, 'write-off': { type: 'boolean' } },
    strict: true,
  });
  const note = values.note?.trim();
  if (!values.intent || !note) throw new UsageError(USAGE);
  if (command === 'reject' && values.recovered === undefined && !values['write-off']) return { name: 'reject', intent: values.intent, note };
  if (command !== 'receivable' || (values.recovered === undefined) === !values['write-off']) throw new UsageError(USAGE);
  if (values['write-off']) return { name: 'receivable', intent: values.intent, note, outcome: { kind: 'written_off' } };
  const amount = /^\d+(\.\d+)?$/.test(values.recovered!) ? toMinorUnits(Number(values.recovered), CURRENCY) : undefined;
  if (amount === undefined) throw new UsageError(`--recovered must be a positive amount of ${CURRENCY} with at most 2 decimal places\n${USAGE}`);
  return { name: 'receivable', intent: values.intent, note, outcome: { kind: 'recovered', amount } };
}

/**
 * The operator's commands for international payment intents; each prints one line of JSON.
 * - `international:reject`: rejects an intent that has not settled. The note becomes the intent's
 *   `adminNote`; the merchant gets its whole source amount back through the pipeline's own
 *   rejection, so exactly once.
 * - `international:receivable`: clears the receivable a rejection after the bridge leg left, once
 *   the money came back by hand (`--recovered`, what actually came back) or will not
 *   (`--write-off`), as a ledger transaction carrying the note.
 */
async function main(argv: string[]): Promise<void> {
  const command = parse(argv);
  const config = loadConfig();
  await assertDependenciesReachable(config);
  const app = await NestFactory.createApplicationContext(
    {
      module: class InternationalCliModule {},
      imports: [ConfigModule.forRoot(config), DatabaseModule, MetricsModule, RedisModule, JobsModule.forRoot({ worker: false }), InternationalIntentsModule],
    },
    { logger: false },
  );
  try {
    if (command.name === 'reject') {
      const from = await app.get(InternationalSettlementService).rejectByOperator(command.intent, command.note);
      process.stdout.write(`${JSON.stringify({ intentId: command.intent, from, status: 'rejected', adminNote: command.note })}\n`);
    } else {
      const { owedBy, owed } = await app.get(InternationalRecovery).clearReceivable(command.intent, command.outcome, command.note);
      const recovered = command.outcome.kind === 'recovered' ? command.outcome.amount : 0;
      process.stdout.write(
        `${JSON.stringify({
          intentId: command.intent,
          outcome: command.outcome.kind,
          owedBy,
          currency: CURRENCY,
          owed: toMajorUnits(owed, CURRENCY),
          recovered: toMajorUnits(recovered, CURRENCY),
          note: command.note,
        })}\n`,
      );
    }
  } finally {
    // Queues still connecting when the context closes would fail the commands they had queued.
    await app.get(JobQueues).ready();
    await app.close();
  }
}

runCli(() => main(process.argv.slice(2)));
