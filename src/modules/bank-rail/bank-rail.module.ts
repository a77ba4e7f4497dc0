import { Module } from '@nestjs/common';
import { ProviderHttpClient } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { OpsMetrics } from '../metrics';
import { BANK_RAIL } from './bank-rail';
import { HttpBankRail } from './http-bank-rail';

/** The bank rail adapter, shared by every module that moves Naira: one client, so one circuit breaker. */
@Module({
  providers: [
    {
      provide: BANK_RAIL,
      inject: [APP_CONFIG, OpsMetrics],
      useFactory: (config: AppConfig, metrics: OpsMetrics) => {
        const client = new ProviderHttpClient({ name: 'bank rail', baseUrl: config.bankRail.url, apiKey: config.bankRail.apiKey });
        return metrics.thirdParties.measure('bank_rail', new HttpBankRail(client), { circuit: client });
      },
    },
  ],
  exports: [BANK_RAIL],
})
export class BankRailModule {}
