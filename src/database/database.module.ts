import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PG_POOL, watchPool } from '../common/persistence/pg-pool';
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
      useFactory: (dataSource: DataSource): Pool => watchPool((dataSource.driver as PostgresDriver).master as Pool),
    },
  ],
  exports: [PG_POOL],
})
export class DatabaseModule {}
