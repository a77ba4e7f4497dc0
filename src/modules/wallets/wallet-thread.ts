import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { TransactionSerializableEIP1559 } from 'viem';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import type { WalletKey } from './wallet.deriver';

/** What the wallet thread is asked: addresses, or signatures by a key it derives. */
export type WalletRequest = { id: number } & (
  | { op: 'derive'; indices: number[] }
  | { op: 'platform-addresses' }
  | { op: 'sign-evm'; key: WalletKey; transaction: TransactionSerializableEIP1559 }
  | { op: 'sign-svm'; keys: WalletKey[]; message: Uint8Array }
);
export type WalletResponse = { id: number; result: unknown } | { id: number; error: string };

type Pending = { resolve: (result: unknown) => void; reject: (err: Error) => void };

/**
 * The thread that holds the wallet mnemonic (`wallet-derivation.worker`): address derivation
 * (about 0.2 ms of curve work each) and signing run there, off the event loop, and the mnemonic
 * never enters this thread's heap. A thread that died is replaced; what it was asked fails.
 */
@Injectable()
export class WalletThread implements OnApplicationShutdown {
  private worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private stopped = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.worker = this.spawn();
  }

  request<T>(request: WalletRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** After the HTTP server has closed (in-flight requests may still need the thread until then). */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }

  private spawn(): Worker {
    // Built code runs the .js worker; tests running from source run the .ts one through ts-node.
    const extension = extname(__filename);
    const worker = new Worker(join(__dirname, `wallet-derivation.worker${extension}`), {
      workerData: { mnemonic: this.config.walletMnemonic },
      // Derivation and signing allocate little and briefly: a small heap keeps the thread from adding tens of MB of RSS.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      execArgv: extension === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [],
    });
    worker.on('message', (response: WalletResponse) => {
      const waiting = this.pending.get(response.id);
      this.pending.delete(response.id);
      if ('error' in response) waiting?.reject(new Error(`wallet thread: ${response.error}`));
      else waiting?.resolve(response.result);
    });
    worker.on('exit', () => {
      const lost = new Error('wallet thread exited');
      for (const waiting of this.pending.values()) waiting.reject(lost);
      this.pending.clear();
      if (!this.stopped) this.worker = this.spawn();
    });
    worker.on('error', () => undefined); // followed by 'exit'
    worker.unref();
    return worker;
  }
}
