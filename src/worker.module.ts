import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { loggerOptions } from './common/logging/logger.options';
import { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { KybWorkerModule } from './modules/kyb/kyb-worker.module';
import { QueuesModule } from './queues/queues.module';
import { RedisModule } from './redis/redis.module';

/** What the worker process loads: shared infrastructure and the queue processors. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, options: { logStream?: DestinationStream } = {}): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), LoggerModule.forRoot(loggerOptions(config, options.logStream)), DatabaseModule, RedisModule, QueuesModule, KybWorkerModule],
    };
  }
}
