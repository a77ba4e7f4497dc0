import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { dependencyOutages } from '../common/errors/dependency-outages';
import { PG_POOL } from '../common/persistence/pg-pool';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { dataSourceOptions } from './database.options';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config, []), autoLoadEntities: true, retryAttempts: 3, retryDelay: 1000 }),
    }),
  ],
  providers: [
    {
      provide: PG_POOL,
      inject: [DataSource],
      useFactory: (dataSource: DataSource): Pool => {
        const pool = (dataSource.driver as PostgresDriver).master as Pool;
        pool.on('connect', (client) => {
          // PostgreSQL answered a new connection: an outage, if one was being logged, is over.
          dependencyOutages.recovered('database');
          // pg-pool listens for a client's errors only while it is idle, and a checked-out client
          // whose backend is terminated between statements emits 'error' at once: without a
          // listener of its own, that would end the process. Its holder sees the failure on its
          // next statement (a 503, a retried job), and the pool drops the client when it is released.
          client.on('error', (err) => dependencyOutages.failed({ dependency: 'database', reason: err.message.split('\n', 1)[0].slice(0, 200) }));
        });
        return pool;
      },
    },
  ],
  exports: [PG_POOL],
})
export class DatabaseModule {}
