import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { OpsMetrics } from '../metrics';
import { TransferRefusedError } from './chain-client';
import { CHAIN_CLIENTS, createChainClients } from './chain-clients';
import { CHAIN_FAUCET, ChainFaucet } from './chain-faucet';

/** The vault's chains, each behind `ChainClient`, and the local chains' faucet outside production; owns no table. */
@Module({
  providers: [
    {
      provide: CHAIN_CLIENTS,
      inject: [APP_CONFIG, OpsMetrics],
      useFactory: (config: AppConfig, metrics: OpsMetrics) =>
        createChainClients(config, (chain, client) =>
          metrics.thirdParties.measure(`chain_${chain}`, client, { refused: (err) => err instanceof TransferRefusedError }),
        ),
    },
    {
      provide: CHAIN_FAUCET,
      useFactory: ({ vault: { faucet } }: AppConfig) => (faucet ? new ChainFaucet(faucet.url, faucet.apiKey) : null),
      inject: [APP_CONFIG],
    },
  ],
  exports: [CHAIN_CLIENTS, CHAIN_FAUCET],
})
export class ChainsModule {}
