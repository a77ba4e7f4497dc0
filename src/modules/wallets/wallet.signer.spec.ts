import * as sodium from 'sodium-native';
import { base58 } from '@scure/base';
import { keccak256, parseTransaction, recoverTransactionAddress, type TransactionSerializableEIP1559 } from 'viem';
import type { AppConfig } from '../../config/app.config';
import { DEV_WALLET_MNEMONIC } from '../../config/dev-secrets';
import { WalletThread } from './wallet-thread';
import { WalletDeriver } from './wallet.deriver';
import { WalletSigner } from './wallet.signer';

/** Signing in the wallet thread: the key that signs is the one of the address the API shows for the business. */
describe('WalletSigner', () => {
  const deriver = new WalletDeriver(DEV_WALLET_MNEMONIC);
  let thread: WalletThread;
  let signer: WalletSigner;

  beforeAll(() => {
    thread = new WalletThread({ walletMnemonic: DEV_WALLET_MNEMONIC } as AppConfig);
    signer = new WalletSigner(thread);
  });

  afterAll(() => thread.onApplicationShutdown());

  const transaction: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId: 31339,
    nonce: 7,
    to: '0xbaaF9af35C5Afb292cC0eC170961B5bF601171b9',
    data: '0xa9059cbb',
    gas: 100_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    value: 0n,
  };

  it.each([0, 1, 41, 2 ** 31 - 1])('an EVM transaction signed with wallet index %i recovers to its vault address', async (index) => {
    const signed = await signer.signEvmTransaction(index, transaction);
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(deriver.derive(index).evm);
    expect(parseTransaction(signed)).toMatchObject({ nonce: 7, chainId: 31339, to: transaction.to!.toLowerCase() });
    expect(keccak256(signed)).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('the gas wallet and fee payer are the platform’s own addresses, apart from every business’s', async () => {
    const platform = await signer.platformAddresses();
    const signed = await signer.signEvmTransaction('platform', transaction);
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(platform.evm);
    for (const index of [0, 1, 2]) expect(Object.values(deriver.derive(index))).not.toContain(platform.evm);
    expect(platform).toEqual(deriver.platformAddresses());
  });

  it('a Solana message signed by several keys verifies against each one’s address', async () => {
    const message = new TextEncoder().encode('a compiled transaction message');
    const [byPlatform, byVault] = await signer.signSolanaMessage(['platform', 5], message);
    const verifies = (signature: Uint8Array, address: string) =>
      sodium.crypto_sign_verify_detached(Buffer.from(signature), Buffer.from(message), Buffer.from(base58.decode(address)));
    expect(verifies(byVault, deriver.derive(5).svm)).toBe(true);
    expect(verifies(byPlatform, deriver.platformAddresses().svm)).toBe(true);
    expect(verifies(byVault, deriver.derive(6).svm)).toBe(false);
  });

  it('an index out of range is refused in the thread, and the thread goes on', async () => {
    await expect(signer.signEvmTransaction(-1, transaction)).rejects.toThrow(/index must be an integer/);
    expect(await signer.signEvmTransaction(3, transaction)).toMatch(/^0x02/);
  });
});
