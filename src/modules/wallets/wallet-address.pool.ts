import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { WalletIndexAllocator } from './wallet-index.allocator';
import { DerivedAddresses } from './wallet.deriver';

export interface WalletAssignment extends DerivedAddresses {
  index: number;
}

/** Addresses kept ready; a refill starts when fewer remain. */
const LOW_WATER = 16;
const BATCH = 32;

/**
 * Ready-made wallet addresses for new businesses. Derivation (about half a millisecond of
 * secp256k1 and ed25519 work per business) runs on a worker thread, ahead of demand, so it
 * neither blocks the event loop nor adds to a create's latency. Indices come from
 * WalletIndexAllocator, so every address is still unique across processes.
 */
@Injectable()
export class WalletAddressPool implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly ready: WalletAssignment[] = [];
  private worker: Worker;
  private stopped = false;
  private refilling?: Promise<void>;
  private pending?: { resolve: (batch: WalletAssignment[]) => void; reject: (err: Error) => void };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly indices: WalletIndexAllocator,
  ) {
    this.worker = this.spawn();
  }

  async next(): Promise<WalletAssignment> {
    while (this.ready.length === 0) await this.refill();
    const assignment = this.ready.shift()!;
    if (this.ready.length < LOW_WATER) void this.refill().catch(() => undefined);
    return assignment;
  }

  /** The first creates find addresses ready. */
  onApplicationBootstrap(): void {
    void this.refill().catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }

  private spawn(): Worker {
    // Built code runs the .js worker; tests running from source run the .ts one through ts-node.
    const extension = extname(__filename);
    const worker = new Worker(join(__dirname, `wallet-derivation.worker${extension}`), {
      workerData: { mnemonic: this.config.walletMnemonic },
      execArgv: extension === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [],
    });
    worker.on('message', (batch: WalletAssignment[]) => this.settle((p) => p.resolve(batch)));
    worker.on('error', (err) => this.settle((p) => p.reject(err)));
    // A worker that died is replaced, so creates fail for one batch at most.
    worker.on('exit', () => {
      this.settle((p) => p.reject(new Error('wallet derivation worker exited')));
      if (!this.stopped) this.worker = this.spawn();
    });
    worker.unref();
    return worker;
  }

  /** One batch in flight at a time; concurrent callers share it. */
  private refill(): Promise<void> {
    this.refilling ??= this.deriveBatch().finally(() => (this.refilling = undefined));
    return this.refilling;
  }

  private async deriveBatch(): Promise<void> {
    const indices: number[] = [];
    for (let i = 0; i < BATCH; i++) indices.push(await this.indices.next());
    const batch = await new Promise<WalletAssignment[]>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(indices);
    });
    this.ready.push(...batch);
  }

  private settle(action: (pending: NonNullable<WalletAddressPool['pending']>) => void): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) action(pending);
  }
}
