import { Module } from '@nestjs/common';
import { WalletAddressPool } from './wallet-address.pool';
import { WalletIndexRepository } from './wallet-index.repository';

@Module({
  providers: [WalletIndexRepository, WalletAddressPool],
  exports: [WalletAddressPool],
})
export class WalletsModule {}
