import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../database/database.module';
import type { StatementPart } from '../agreements';
import { POBO_BUSINESS_COLUMNS, PoboBusinessRecord } from './pobo-business.mapper';
import { PoboBusinessEntity } from './pobo-business.entity';

export type PoboBusinessRow = PoboBusinessRecord;

export type NewPoboBusiness = Pick<
  PoboBusinessEntity,
  'id' | 'merchantId' | 'businessName' | 'email' | 'phoneNumber' | 'country' | 'allowNairaCollection' | 'walletIndex' | 'evmAddress' | 'svmAddress'
>;

/** Parameters of the business INSERT in `insert`; a part composed after them starts here. */
export const AFTER_BUSINESS_PARAMS = 11;

/**
 * The hot paths of POBO businesses: one named prepared statement per request. Reads are scoped
 * to the merchant in the WHERE clause, so a foreign id can never be read, and served by
 * (merchant_id, seq).
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

  /**
   * Inserts a business, and `with` (the agreement link, built by its owner) in the same
   * statement: one round trip, atomic. Returns the business as the read paths do.
   */
  async insert(business: NewPoboBusiness, withPart: StatementPart): Promise<PoboBusinessRow> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_insert_with_link',
      text: `WITH business AS (
               INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country,
                                            allow_naira_collection, wallet_index, evm_address, svm_address)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
               RETURNING ${POBO_BUSINESS_COLUMNS}
             ), linked AS (${withPart.text})
             SELECT * FROM business`,
      values: [
        business.id,
        business.merchantId,
        business.businessName,
        business.email,
        business.phoneNumber,
        business.country,
        business.allowNairaCollection,
        business.walletIndex,
        business.evmAddress,
        business.svmAddress,
        ...withPart.values,
      ],
    });
    return rows[0];
  }

  /** The newest `limit` businesses of the merchant, newest first. */
  async listOwned(merchantId: string, limit: number): Promise<PoboBusinessRow[]> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_list_first',
      text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses
             WHERE merchant_id = $1 ORDER BY seq DESC LIMIT $2`,
      values: [merchantId, limit],
    });
    return rows;
  }

  /**
   * The `limit` businesses that follow the merchant's business `afterId` (newest first), or
   * undefined when the merchant has no such business. One statement: the anchor row is selected
   * too (`seq <=`) and comes first exactly when it exists and is the merchant's, since the
   * subquery is NULL, and the result empty, otherwise.
   */
  async listOwnedAfter(merchantId: string, afterId: string, limit: number): Promise<PoboBusinessRow[] | undefined> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_list_after_id',
      text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses
             WHERE merchant_id = $1 AND seq <= (SELECT seq FROM pobo_businesses WHERE id = $2 AND merchant_id = $1)
             ORDER BY seq DESC LIMIT $3`,
      values: [merchantId, afterId, limit + 1],
    });
    return rows[0]?.id === afterId ? rows.slice(1) : undefined;
  }
}
