import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../modules/metrics';
import { LedgerVerificationModule, LedgerVerificationService } from '../modules/ledger-verification';
import { assertDependenciesReachable, DependenciesUnavailableError } from '../startup/preflight';

/**
 * `npm run ledger:verify`: runs the ledger's verification (see `LedgerVerificationService`), records
 * it, and prints one line of JSON with every problem found, every open receivable and what the
 * rails hold; exits 0 only when all hold. The ledger's history is read from the last run that held
 * on; `--full` reads all of it.
 */
async function main(): Promise<void> {
  console.log = console.error;
  const config = loadConfig();
  await assertDependenciesReachable(config, { redis: false });
  const app = await NestFactory.createApplicationContext(
    { module: class LedgerCliModule {}, imports: [ConfigModule.forRoot(config), DatabaseModule, MetricsModule, LedgerVerificationModule] },
    { logger: false },
  );
  try {
    const { ok, problems, ...report } = await app.get(LedgerVerificationService).verify('cli', { full: process.argv.includes('--full') });
    process.stdout.write(`${JSON.stringify({ ok, ...problems, ...report })}\n`);
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
