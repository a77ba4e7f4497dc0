/** What other modules may use of the wallets module. */
export { WalletsModule } from './wallets.module';
export { WalletAddressPool } from './wallet-address.pool';
export type { WalletAssignment } from './wallet-address.pool';
export { WalletSigner } from './wallet.signer';
export type { WalletKey } from './wallet.deriver';
export { toChecksumAddress } from './checksum-address';
