import { Module } from '@nestjs/common';
import { ProviderHttpClient } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { OpsMetrics } from '../metrics';
import { BRIDGE_RAIL } from './bridge-rail';
import { HttpBridgeRail } from './http-bridge-rail';
import { HttpPayoutRail, PAYOUT_RAIL_NAME } from './http-payout-rail';
import { BRIDGE_RAIL_NAME, HttpRateProvider } from './http-rate-provider';
import { PAYOUT_RAIL } from './payout-rail';
import { RATE_PROVIDER } from './rate-provider';

/** The bridge rail's client, shared by its transfers and its rates: one circuit breaker for the one provider. */
const BRIDGE_RAIL_CLIENT = Symbol('BRIDGE_RAIL_CLIENT');

/** The cross-border rails of international payment intents: rates and the bridge leg (bridge rail), the payout leg (payout rail). One client per rail. */
@Module({
  providers: [
    {
      provide: BRIDGE_RAIL_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ProviderHttpClient({ name: BRIDGE_RAIL_NAME, baseUrl: config.bridgeRail.url, apiKey: config.bridgeRail.apiKey }),
    },
    {
      provide: RATE_PROVIDER,
      inject: [BRIDGE_RAIL_CLIENT, OpsMetrics],
      useFactory: (client: ProviderHttpClient, metrics: OpsMetrics) =>
        metrics.thirdParties.measure('bridge_rail', new HttpRateProvider(client), { circuit: client }),
    },
    {
      provide: BRIDGE_RAIL,
      inject: [BRIDGE_RAIL_CLIENT, OpsMetrics],
      useFactory: (client: ProviderHttpClient, metrics: OpsMetrics) =>
        metrics.thirdParties.measure('bridge_rail', new HttpBridgeRail(client), { circuit: client }),
    },
    {
      provide: PAYOUT_RAIL,
      inject: [APP_CONFIG, OpsMetrics],
      useFactory: (config: AppConfig, metrics: OpsMetrics) => {
        const client = new ProviderHttpClient({ name: PAYOUT_RAIL_NAME, baseUrl: config.payoutRail.url, apiKey: config.payoutRail.apiKey });
        return metrics.thirdParties.measure('payout_rail', new HttpPayoutRail(client), { circuit: client });
      },
    },
  ],
  exports: [RATE_PROVIDER, BRIDGE_RAIL, PAYOUT_RAIL],
})
export class CrossBorderRailsModule {}
