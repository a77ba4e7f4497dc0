import { parentPort, workerData } from 'node:worker_threads';
import { WalletDeriver } from './wallet.deriver';

/**
 * Worker thread of WalletAddressPool: derives addresses for the indices it is sent. The mnemonic
 * arrives once through workerData and lives only in this thread.
 */
const deriver = new WalletDeriver((workerData as { mnemonic: string }).mnemonic);

parentPort!.on('message', (indices: number[]) => {
  parentPort!.postMessage(indices.map((index) => ({ index, ...deriver.derive(index) })));
});
