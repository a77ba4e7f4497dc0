import { Module } from '@nestjs/common';
import { ProviderHttpClient } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { AuthModule } from '../auth/auth.module';
import { BusinessStatesModule } from '../business-states/business-states.module';
import { NairaModule } from '../naira/naira.module';
import { DOCUMENT_STORAGE, LocalDirectoryStorage } from './document-storage';
import { HttpVerificationProvider } from './http-verification-provider';
import { KybSyncService } from './kyb-sync.service';
import { KybController } from './kyb.controller';
import { KybService } from './kyb.service';
import { VERIFICATION_PROVIDER } from './verification-provider';

@Module({
  imports: [AuthModule, BusinessStatesModule, NairaModule],
  controllers: [KybController],
  providers: [
    KybService,
    KybSyncService,
    { provide: DOCUMENT_STORAGE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new LocalDirectoryStorage(config.storageDir) },
    {
      provide: VERIFICATION_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new HttpVerificationProvider(
          new ProviderHttpClient({ name: 'verification provider', baseUrl: config.verificationProvider.url, apiKey: config.verificationProvider.apiKey }),
        ),
    },
  ],
  exports: [KybSyncService, DOCUMENT_STORAGE, VERIFICATION_PROVIDER],
})
export class KybModule {}
