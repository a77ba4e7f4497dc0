import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app.config';
import { prepareDatabase } from '../database/migrate';
import { MerchantsService } from '../modules/auth';
import { assertDependenciesReachable } from '../startup/preflight';
import { CliModule } from './cli.module';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run --silent merchant:create -- --name "Acme"
  npm run --silent merchant:key:create -- --merchant mer_…
  npm run --silent merchant:key:revoke -- --key key_…`;

/**
 * Operator commands. Each prints exactly one line of JSON on stdout; everything else goes to
 * stderr, so scripts can parse the output.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, merchant: { type: 'string' }, key: { type: 'string' } },
    strict: true,
  });

  const config = loadConfig();
  // Merchants and keys live in PostgreSQL alone; the database itself is created if missing.
  await assertDependenciesReachable(config, { redis: false, databaseMayBeMissing: true });
  await prepareDatabase(config);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
  try {
    const merchants = app.get(MerchantsService);
    let result: object;
    if (command === 'create' && values.name?.trim()) {
      result = await merchants.createMerchant(values.name.trim());
    } else if (command === 'key:create' && values.merchant) {
      result = await merchants.createKey(values.merchant);
    } else if (command === 'key:revoke' && values.key) {
      result = await merchants.revokeKey(values.key);
    } else {
      throw new UsageError(USAGE);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await app.close();
  }
}

runCli(() => main(process.argv.slice(2)));
