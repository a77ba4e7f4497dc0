import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { WalletIndexRepository } from './wallet-index.repository';
import { WalletThread } from './wallet-thread';
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
 * secp256k1 and ed25519 work per business) runs on the wallet thread, ahead of demand, so it
 * neither blocks the event loop nor adds to a create's latency. Indices are reserved from the
 * database sequence a batch at a time, so every address is unique across processes.
 */
@Injectable()
export class WalletAddressPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly ready: WalletAssignment[] = [];
  private readonly waiters: Waiter[] = [];
  private requested = 0;
  private stopped = false;

  constructor(
    private readonly thread: WalletThread,
    private readonly indices: WalletIndexRepository,
  ) {}

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

  onApplicationShutdown(): void {
    this.stopped = true;
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
    return this.thread.request<WalletAssignment[]>({ op: 'derive', indices: await this.indices.reserve(BATCH) });
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
}
