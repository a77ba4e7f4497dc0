import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app.config';
import { DatabaseLogger } from './database.logger';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'dbPoolSize' | 'dbStatementTimeoutMs'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities: ENTITIES,
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
    },
  };
}
