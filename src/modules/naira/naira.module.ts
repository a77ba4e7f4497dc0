import { Module } from '@nestjs/common';
import { ProviderHttpClient } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobsModule } from '../../jobs';
import { PoboBusinessesModule } from '../pobo-businesses';
import { BANK_RAIL } from './bank-rail';
import { HttpBankRail } from './http-bank-rail';
import { NAIRA_JOBS, NAIRA_QUEUE } from './naira.jobs';
import { NairaRepository } from './naira.repository';
import { NairaService } from './naira.service';

/** Owns `naira_accounts`. */
@Module({
  imports: [PoboBusinessesModule, JobsModule.forFeature(NAIRA_QUEUE, Object.values(NAIRA_JOBS))],
  providers: [
    NairaService,
    NairaRepository,
    {
      provide: BANK_RAIL,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new HttpBankRail(new ProviderHttpClient({ name: 'bank rail', baseUrl: config.bankRail.url, apiKey: config.bankRail.apiKey })),
    },
  ],
  exports: [NairaService],
})
export class NairaModule {}
