import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { dependencyOutages } from '../common/errors/dependency-outages';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { dataSourceOptions } from './database.options';

/**
 * The pg pool behind TypeORM, for the named prepared statements of repositories' hot paths
 * (see README, Data access). Everything else goes through TypeORM on the same pool.
 */
export const PG_POOL = Symbol('PG_POOL');

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), retryAttempts: 3, retryDelay: 1000 }),
    }),
  ],
  providers: [
    {
      provide: PG_POOL,
      inject: [DataSource],
      useFactory: (dataSource: DataSource): Pool => {
        const pool = (dataSource.driver as PostgresDriver).master as Pool;
        // PostgreSQL answered a new connection: an outage, if one was being logged, is over.
        pool.on('connect', () => dependencyOutages.recovered('database'));
        return pool;
      },
    },
  ],
  exports: [PG_POOL],
})
export class DatabaseModule {}
