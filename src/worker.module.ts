import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { createRootLogger, nestLoggerParams } from './common/logging/logger.options';
import { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './jobs';
import { AccountsModule } from './modules/accounts';
import { KybModule } from './modules/kyb';
import { LedgerVerificationScheduleModule } from './modules/ledger-verification';
import { IdempotencyModule } from './modules/idempotency';
import { InternationalIntentsModule } from './modules/international-intents';
import { NairaModule } from './modules/naira';
import { PaymentIntentsModule } from './modules/payment-intents';
import { RailEventsModule } from './modules/rail-events';
import { VaultModule } from './modules/vault';
import { WithdrawalsModule } from './modules/withdrawals';
import { EventsModule, WebhookDeliveryModule } from './modules/events';
import { RedisModule } from './redis/redis.module';
import { OpsModule } from './modules/ops';

/**
 * The worker process: the modules that declare jobs, and the job registry, which runs their
 * handlers and schedules and relays the outbox.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, logger = createRootLogger(config)): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(nestLoggerParams(logger)),
        DatabaseModule,
        RedisModule,
        JobsModule.forRoot({ worker: true }),
        OpsModule.forRoot('worker'),
        AccountsModule,
        KybModule,
        NairaModule,
        IdempotencyModule,
        PaymentIntentsModule,
        WithdrawalsModule,
        EventsModule,
        WebhookDeliveryModule,
        VaultModule,
        InternationalIntentsModule,
        RailEventsModule,
        LedgerVerificationScheduleModule,
      ],
    };
  }
}
