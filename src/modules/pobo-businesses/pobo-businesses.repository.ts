import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../database/database.module';
import { POBO_BUSINESS_COLUMNS, PoboBusinessRecord } from './pobo-business.mapper';

export type PoboBusinessRow = PoboBusinessRecord & { seq: string };

/**
 * Read side of POBO businesses: one prepared statement per request, scoped to the merchant in
 * the WHERE clause so a foreign id can never be read, served by (merchant_id, seq).
 */
@Injectable()
export class PoboBusinessesRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findOwned(merchantId: string, id: string): Promise<PoboBusinessRow | undefined> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_find_owned',
      text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** Newest first; `beforeSeq` continues after the last row of the previous page. */
  async listOwned(merchantId: string, limit: number, beforeSeq?: string): Promise<PoboBusinessRow[]> {
    const { rows } = beforeSeq
      ? await this.pool.query<PoboBusinessRow>({
          name: 'pobo_list_after',
          text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses
                 WHERE merchant_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
          values: [merchantId, beforeSeq, limit],
        })
      : await this.pool.query<PoboBusinessRow>({
          name: 'pobo_list_first',
          text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses
                 WHERE merchant_id = $1 ORDER BY seq DESC LIMIT $2`,
          values: [merchantId, limit],
        });
    return rows;
  }
}
