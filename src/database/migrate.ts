import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app.config';
import { dataSourceOptions } from './database.options';
import { ensureDatabase } from './ensure-database';

/** Arbitrary constant: serialises migration runs of processes that start at the same time. */
const MIGRATION_LOCK_ID = 7_314_002;

/** Creates the database if missing and applies pending migrations, one process at a time. */
export async function prepareDatabase(config: AppConfig): Promise<void> {
  await ensureDatabase(config.databaseUrl);
  const dataSource = new DataSource({ ...dataSourceOptions(config), logging: ['error'] });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
