import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app.config';
import { DatabaseLogger } from './database.logger';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations';
import { CountedClient } from '../common/persistence/pg-pool';

/**
 * Every entity file of the service, for the tools that see the whole schema (the migration
 * generator and check, the migration runner). The application registers none here: each module
 * registers its own tables (`TypeOrmModule.forFeature`), loaded as the modules it imports.
 */
export const ALL_ENTITY_FILES = [join(__dirname, '..', '**', '*.entity.{ts,js}')];

export function dataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl' | 'dbPoolSize' | 'dbStatementTimeoutMs'>,
  entities: NonNullable<DataSourceOptions['entities']> = ALL_ENTITY_FILES,
): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new DatabaseLogger(['error', 'warn', 'migration']),
    maxQueryExecutionTime: 1_000,
    extra: {
      max: config.dbPoolSize,
      // Fail fast when PostgreSQL is down, so callers get a 503 quickly instead of hanging.
      connectionTimeoutMillis: 2_000,
      statement_timeout: config.dbStatementTimeoutMs,
      application_name: 'merchant-api',
      Client: CountedClient,
    },
  };
}
