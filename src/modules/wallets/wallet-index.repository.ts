import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../common/persistence/pg-pool';

/**
 * HD derivation indices from `pobo_wallet_index_seq`. The sequence never gives a value twice,
 * across any number of processes; indices reserved by a process that stops are skipped, which is
 * harmless because each business stores the index of its addresses.
 */
@Injectable()
export class WalletIndexRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async reserve(count: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ index: number }>({
      name: 'wallet_index_block',
      text: "SELECT nextval('pobo_wallet_index_seq')::int AS index FROM generate_series(1, $1)",
      values: [count],
    });
    return rows.map((row) => row.index);
  }
}
