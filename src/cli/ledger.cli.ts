import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { RailReconciliationModule, RailReconciliationService } from '../modules/international-intents';
import { LedgerModule, LedgerService } from '../modules/ledger';
import { VaultReconciliationModule, VaultReconciliationService } from '../modules/vault';
import { assertDependenciesReachable, DependenciesUnavailableError } from '../startup/preflight';

/**
 * `npm run ledger:verify`: every ledger transaction balances, every account's balance is the sum
 * of its entries, no merchant account is negative, each merchant's balance transactions add up to
 * its available balance, no receivable (money a rail owes back after a late rejection) has been
 * open longer than `LEDGER_RECEIVABLE_MAX_AGE_HOURS`, and where the ledger has international
 * payments' money agrees with what the bridge and payout rails report (`railDifferences`; asked only
 * once the ledger ever placed money at a rail), and each vault's USDC on its chain is what the ledger
 * holds for it plus its pending deposits (`vaultDifferences`; asked of the chains only once a vault
 * received a deposit). Prints one line of JSON with every open receivable
 * and what the rails hold; exits 0 only when all hold.
 */
async function main(): Promise<void> {
  console.log = console.error;
  const config = loadConfig();
  await assertDependenciesReachable(config, { redis: false });
  const app = await NestFactory.createApplicationContext(
    {
      module: class LedgerCliModule {},
      imports: [ConfigModule.forRoot(config), DatabaseModule, LedgerModule, RailReconciliationModule, VaultReconciliationModule],
    },
    { logger: false },
  );
  try {
    const ledger = app.get(LedgerService);
    const openReceivables = await ledger.openReceivables();
    const overdueReceivables = openReceivables.filter((r) => Date.now() - Date.parse(r.openedAt) > config.receivableMaxAgeMs).map((r) => r.sourceId);
    const rails = await app.get(RailReconciliationService).reconcile();
    const vaults = await app.get(VaultReconciliationService).reconcile();
    const problems = { ...(await ledger.problems()), overdueReceivables, railDifferences: rails?.differences ?? [], vaultDifferences: vaults.differences };
    const ok = Object.values(problems).every((found: unknown[]) => found.length === 0);
    const railReport = rails && { balances: rails.balances, compared: rails.compared, recent: rails.recent };
    process.stdout.write(`${JSON.stringify({ ok, ...problems, openReceivables, rails: railReport ?? null, vaults: { compared: vaults.compared } })}\n`);
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
