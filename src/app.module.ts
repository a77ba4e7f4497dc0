import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { nestLoggerParams } from './common/logging/logger.options';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app.config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './jobs';
import { AgreementPageModule } from './modules/agreement-page';
import { MerchantAuthModule } from './modules/auth';
import { AccountsModule } from './modules/accounts';
import { HealthModule } from './modules/health';
import { InternationalIntentsModule } from './modules/international-intents';
import { KybModule } from './modules/kyb';
import { LedgerModule } from './modules/ledger';
import { PaymentIntentsModule } from './modules/payment-intents';
import { RailEventsModule } from './modules/rail-events';
import { VaultModule } from './modules/vault';
import { WithdrawalsModule } from './modules/withdrawals';
import { EventsModule } from './modules/events';
import { PoboBusinessesModule } from './modules/pobo-businesses';
import { SearchModule } from './modules/search';
import { OpsModule } from './modules/ops';
import { RedisModule } from './redis/redis.module';

export interface AppModuleOptions {
  /** The process's root logger (see createRootLogger). */
  logger: Logger;
}

/** The HTTP API process. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(nestLoggerParams(options.logger)),
        DatabaseModule,
        RedisModule,
        JobsModule.forRoot({ worker: false }),
        HealthModule,
        OpsModule.forRoot('api'),
        MerchantAuthModule,
        AccountsModule,
        PoboBusinessesModule,
        AgreementPageModule,
        KybModule,
        LedgerModule,
        PaymentIntentsModule,
        WithdrawalsModule,
        EventsModule,
        VaultModule,
        SearchModule,
        InternationalIntentsModule,
        RailEventsModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
