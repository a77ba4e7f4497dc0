import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { createRootLogger, nestLoggerParams } from './common/logging/logger.options';
import { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { KybWorkerModule } from './modules/kyb/kyb-worker.module';
import { QueuesModule } from './queues/queues.module';
import { RedisModule } from './redis/redis.module';

/** What the worker process loads: shared infrastructure and the queue processors. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, logger = createRootLogger(config)): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), LoggerModule.forRoot(nestLoggerParams(logger)), DatabaseModule, RedisModule, QueuesModule, KybWorkerModule],
    };
  }
}
