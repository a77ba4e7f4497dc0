import { Module } from '@nestjs/common';
import { WalletAddressPool } from './wallet-address.pool';
import { WalletIndexAllocator } from './wallet-index.allocator';

@Module({
  providers: [WalletIndexAllocator, WalletAddressPool],
  exports: [WalletAddressPool],
})
export class WalletsModule {}
