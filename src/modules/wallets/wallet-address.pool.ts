import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { WalletIndexRepository } from './wallet-index.repository';
import { DerivedAddresses } from './wallet.deriver';

export interface WalletAssignment extends DerivedAddresses {
  index: number;
}

/** Addresses kept ready or on their way: enough for a burst while the next batch is derived. */
const TARGET = 256;
const BATCH = 64;

interface Waiter {
  resolve: (assignment: WalletAssignment) => void;
  reject: (err: Error) => void;
}

/**
 * Ready-made wallet addresses for new businesses. Derivation (about 0.2 ms of
 * secp256k1 and ed25519 work per business) runs on a worker thread, ahead of demand, so it
 * neither blocks the event loop nor adds to a create's latency. Indices are reserved from the
 * database sequence a batch at a time, so every address is unique across processes.
 */
@Injectable()
export class WalletAddressPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly ready: WalletAssignment[] = [];
  private readonly waiters: Waiter[] = [];
  /** Batches posted to the worker, in the order it answers them. */
  private readonly inFlight: { resolve: (batch: WalletAssignment[]) => void; reject: (err: Error) => void }[] = [];
  private requested = 0;
  private worker: Worker;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly indices: WalletIndexRepository,
  ) {
    this.worker = this.spawn();
  }

  next(): Promise<WalletAssignment> {
    const assignment = this.ready.shift();
    this.topUp();
    if (assignment) return Promise.resolve(assignment);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** The first creates find addresses ready. */
  onApplicationBootstrap(): void {
    this.topUp();
  }

  /** After the HTTP server has closed (in-flight creates may still need addresses until then). */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }

  /** Keeps up to TARGET addresses ready or being derived. */
  private topUp(): void {
    while (!this.stopped && this.ready.length + this.requested < TARGET) {
      this.requested += BATCH;
      void this.deriveBatch()
        .then((batch) => this.deliver(batch))
        .catch((err: Error) => this.fail(err))
        .finally(() => (this.requested -= BATCH));
    }
  }

  private async deriveBatch(): Promise<WalletAssignment[]> {
    const indices = await this.indices.reserve(BATCH);
    return new Promise((resolve, reject) => {
      this.inFlight.push({ resolve, reject });
      this.worker.postMessage(indices);
    });
  }

  private deliver(batch: WalletAssignment[]): void {
    for (const assignment of batch) {
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(assignment);
      else this.ready.push(assignment);
    }
  }

  /** A failed batch (database or worker down) fails the creates waiting for it; the next create tries again. */
  private fail(err: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(err);
  }

  private spawn(): Worker {
    // Built code runs the .js worker; tests running from source run the .ts one through ts-node.
    const extension = extname(__filename);
    const worker = new Worker(join(__dirname, `wallet-derivation.worker${extension}`), {
      workerData: { mnemonic: this.config.walletMnemonic },
      // Derivation allocates little and briefly: a small heap keeps the thread from adding tens of MB of RSS.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      execArgv: extension === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [],
    });
    worker.on('message', (batch: WalletAssignment[]) => this.inFlight.shift()?.resolve(batch));
    // A worker that died is replaced; the batches it held fail and are requested again.
    worker.on('exit', () => {
      const lost = new Error('wallet derivation worker exited');
      for (const batch of this.inFlight.splice(0)) batch.reject(lost);
      if (!this.stopped) this.worker = this.spawn();
    });
    worker.on('error', () => undefined); // followed by 'exit'
    worker.unref();
    return worker;
  }
}
