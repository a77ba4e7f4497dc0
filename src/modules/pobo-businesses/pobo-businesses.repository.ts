import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import { PG_POOL } from '../../database/database.module';
import { KeysetList } from '../../database/keyset-list';
import type { StatementPart } from '../../database/statement-part';
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
  private readonly pages: KeysetList<PoboBusinessRow>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'pobo', { table: 'pobo_businesses', alias: 'b' }, POBO_BUSINESS_COLUMNS);
  }

  async findOwned(merchantId: string, id: string): Promise<PoboBusinessRow | undefined> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_find_owned',
      text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** `findOwned` in `manager`'s transaction, the row share-locked until it ends. */
  async findOwnedForShare(manager: EntityManager, merchantId: string, id: string): Promise<PoboBusinessRow | undefined> {
    const rows = await manager.query<PoboBusinessRow[]>(`SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1 AND merchant_id = $2 FOR SHARE`, [
      id,
      merchantId,
    ]);
    return rows[0];
  }

  /**
   * Inserts a business, and `with` (the agreement link, built by its owner) in the same
   * statement: one round trip, atomic. Returns the business as the read paths do. In `manager`'s
   * transaction when given (an Idempotency-Key's answer is stored in it), else as a prepared
   * statement of its own.
   */
  async insert(business: NewPoboBusiness, withPart: StatementPart, manager?: EntityManager): Promise<PoboBusinessRow> {
    const statement = {
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
    };
    if (manager) return (await manager.query<PoboBusinessRow[]>(statement.text, statement.values))[0];
    return (await this.pool.query<PoboBusinessRow>(statement)).rows[0];
  }

  /** A page of the merchant's businesses (see `KeysetList`). */
  list(merchantId: string, limit: number, afterId?: string): Promise<PoboBusinessRow[] | undefined> {
    return this.pages.page(merchantId, limit, afterId);
  }
}
