import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { WalletIndexAllocator } from './wallet-index.allocator';
import { WalletDeriver } from './wallet.deriver';

@Module({
  providers: [
    {
      provide: WalletDeriver,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new WalletDeriver(config.walletMnemonic),
    },
    WalletIndexAllocator,
  ],
  exports: [WalletDeriver, WalletIndexAllocator],
})
export class WalletsModule {}
