import { parentPort, workerData } from 'node:worker_threads';
import * as sodium from 'sodium-native';
import { bytesToHex } from '@noble/hashes/utils';
import type { WalletRequest, WalletResponse } from './wallet-thread';
import { WalletDeriver } from './wallet.deriver';

/**
 * The wallet thread: derives addresses and signs with the keys of the mnemonic, which arrives
 * once through workerData and lives only here. Keys are derived for one signature and zeroed
 * after it; what leaves the thread is addresses and signatures, never a key.
 */
const deriver = new WalletDeriver((workerData as { mnemonic: string }).mnemonic);

async function answer(request: WalletRequest): Promise<unknown> {
  switch (request.op) {
    case 'derive':
      return request.indices.map((index) => ({ index, ...deriver.derive(index) }));
    case 'platform-addresses':
      return deriver.platformAddresses();
    case 'sign-evm': {
      const key = deriver.evmPrivateKey(request.key);
      try {
        // viem's accounts are loaded with the first EVM signature: the API's thread only derives addresses.
        const { privateKeyToAccount } = await import('viem/accounts');
        return await privateKeyToAccount(`0x${bytesToHex(key)}`).signTransaction(request.transaction);
      } finally {
        key.fill(0);
      }
    }
    case 'sign-svm':
      return request.keys.map((walletKey) => {
        const secretKey = deriver.svmSecretKey(walletKey);
        const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
        sodium.crypto_sign_detached(signature, Buffer.from(request.message), secretKey);
        secretKey.fill(0);
        return new Uint8Array(signature);
      });
  }
}

parentPort!.on('message', (request: WalletRequest) => {
  answer(request).then(
    (result) => parentPort!.postMessage({ id: request.id, result } satisfies WalletResponse),
    (err: unknown) => parentPort!.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) } satisfies WalletResponse),
  );
});
