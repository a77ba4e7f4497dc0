import { Module } from '@nestjs/common';
import { ProviderHttpClient } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { BusinessStatesModule } from '../business-states/business-states.module';
import { BANK_RAIL } from './bank-rail';
import { HttpBankRail } from './http-bank-rail';
import { NairaService } from './naira.service';

@Module({
  imports: [BusinessStatesModule],
  providers: [
    NairaService,
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
