import { TypeOrmModule } from '@nestjs/typeorm';
import { KybApplicationEntity } from './kyb-application.entity';
import { KybDocumentChunkEntity } from './kyb-document-chunk.entity';
import { KybDocumentEntity } from './kyb-document.entity';
import { Module } from '@nestjs/common';
import { ProviderHttpClient } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobsModule } from '../../jobs';
import { IdempotencyModule } from '../idempotency';
import { NairaModule } from '../naira';
import { OpsMetrics } from '../metrics';
import { PoboBusinessesModule } from '../pobo-businesses';
import { HttpVerificationProvider } from './http-verification-provider';
import { KybDocumentStore } from './kyb-document.store';
import { KybForwardingService } from './kyb-forwarding.service';
import { KybRefreshService } from './kyb-refresh.service';
import { KybController } from './kyb.controller';
import { KYB_JOBS, KYB_QUEUE } from './kyb.jobs';
import { KybRepository } from './kyb.repository';
import { KybService } from './kyb.service';
import { VERIFICATION_PROVIDER } from './verification-provider';

/** Owns `kyb_applications`, `kyb_documents` and `kyb_document_chunks`. */
@Module({
  imports: [
    TypeOrmModule.forFeature([KybApplicationEntity, KybDocumentChunkEntity, KybDocumentEntity]),
    PoboBusinessesModule,
    NairaModule,
    IdempotencyModule,
    JobsModule.forFeature(KYB_QUEUE, Object.values(KYB_JOBS)),
  ],
  controllers: [KybController],
  providers: [
    KybService,
    KybRefreshService,
    KybForwardingService,
    KybDocumentStore,
    KybRepository,
    {
      provide: VERIFICATION_PROVIDER,
      inject: [APP_CONFIG, OpsMetrics],
      useFactory: (config: AppConfig, metrics: OpsMetrics) => {
        const client = new ProviderHttpClient({
          name: 'verification provider',
          baseUrl: config.verificationProvider.url,
          apiKey: config.verificationProvider.apiKey,
        });
        return metrics.thirdParties.measure('verification_provider', new HttpVerificationProvider(client), { circuit: client });
      },
    },
  ],
})
export class KybModule {}
