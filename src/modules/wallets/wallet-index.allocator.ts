import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../database/database.module';

const BLOCK_SIZE = 16;

/**
 * Hands out HD derivation indices from `pobo_wallet_index_seq`, reserving them in blocks so a
 * create costs no extra round trip. The sequence never gives a value twice, across any number of
 * processes; indices reserved by a process that stops are skipped, which is harmless because
 * each business stores the index of its addresses.
 */
@Injectable()
export class WalletIndexAllocator {
  private readonly reserved: number[] = [];
  private refill?: Promise<void>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async next(): Promise<number> {
    while (this.reserved.length === 0) {
      this.refill ??= this.reserveBlock().finally(() => (this.refill = undefined));
      await this.refill;
    }
    return this.reserved.shift()!;
  }

  private async reserveBlock(): Promise<void> {
    const { rows } = await this.pool.query<{ index: number }>({
      name: 'wallet_index_block',
      text: "SELECT nextval('pobo_wallet_index_seq')::int AS index FROM generate_series(1, $1)",
      values: [BLOCK_SIZE],
    });
    this.reserved.push(...rows.map((row) => row.index));
  }
}
