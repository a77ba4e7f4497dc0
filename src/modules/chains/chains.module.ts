import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { CHAIN_CLIENTS, createChainClients } from './chain-clients';

/** The vault's chains, each behind `ChainClient`; owns no table. */
@Module({
  providers: [{ provide: CHAIN_CLIENTS, useFactory: (config: AppConfig) => createChainClients(config), inject: [APP_CONFIG] }],
  exports: [CHAIN_CLIENTS],
})
export class ChainsModule {}
