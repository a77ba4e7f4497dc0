import { Module } from '@nestjs/common';
import { WalletAddressPool } from './wallet-address.pool';
import { WalletIndexRepository } from './wallet-index.repository';
import { WalletThread } from './wallet-thread';
import { WalletSigner } from './wallet.signer';

/** The wallet thread, which alone holds the mnemonic: addresses for new businesses, and signatures. */
@Module({
  providers: [WalletThread, WalletIndexRepository, WalletAddressPool, WalletSigner],
  exports: [WalletAddressPool, WalletSigner],
})
export class WalletsModule {}
