import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { LedgerModule, LedgerService } from '../modules/ledger';
import { assertDependenciesReachable, DependenciesUnavailableError } from '../startup/preflight';

/**
 * `npm run ledger:verify`: every ledger transaction balances, every account's balance is the sum
 * of its entries, no merchant account is negative, each merchant's balance transactions add up to
 * its available balance, and no receivable (money a rail owes back after a late rejection) has been
 * open longer than `LEDGER_RECEIVABLE_MAX_AGE_HOURS`. Prints one line of JSON with every open
 * receivable; exits 0 only when all hold.
 */
async function main(): Promise<void> {
  console.log = console.error;
  const config = loadConfig();
  await assertDependenciesReachable(config, { redis: false });
  const app = await NestFactory.createApplicationContext(
    { module: class LedgerCliModule {}, imports: [ConfigModule.forRoot(config), DatabaseModule, LedgerModule] },
    { logger: false },
  );
  try {
    const ledger = app.get(LedgerService);
    const openReceivables = await ledger.openReceivables();
    const overdueReceivables = openReceivables.filter((r) => Date.now() - Date.parse(r.openedAt) > config.receivableMaxAgeMs).map((r) => r.sourceId);
    const problems = { ...(await ledger.problems()), overdueReceivables };
    const ok = Object.values(problems).every((ids: string[]) => ids.length === 0);
    process.stdout.write(`${JSON.stringify({ ok, ...problems, openReceivables })}\n`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  const expected = err instanceof ConfigError || err instanceof DependenciesUnavailableError;
  process.stderr.write(`${expected ? err.message : `error: ${err instanceof Error ? err.stack : String(err)}`}\n`);
  process.exit(2);
});
