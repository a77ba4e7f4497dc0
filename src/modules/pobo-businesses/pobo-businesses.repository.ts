import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../database/database.module';
import { AgreementLinkEntity } from '../agreements/agreement-link.entity';
import { POBO_BUSINESS_COLUMNS, PoboBusinessRecord } from './pobo-business.mapper';
import { PoboBusinessEntity } from './pobo-business.entity';

export type PoboBusinessRow = PoboBusinessRecord & { seq: string };

export type NewPoboBusiness = Pick<
  PoboBusinessEntity,
  'id' | 'merchantId' | 'businessName' | 'email' | 'phoneNumber' | 'country' | 'allowNairaCollection' | 'walletIndex' | 'evmAddress' | 'svmAddress'
>;
export type NewAgreementLink = Pick<AgreementLinkEntity, 'id' | 'tokenHash' | 'expiresAt'>;

/**
 * The hot paths of POBO businesses: one prepared statement per request. Reads are scoped to the
 * merchant in the WHERE clause, so a foreign id can never be read, and served by (merchant_id, seq).
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
   * Inserts a business and its first agreement link in one statement (one round trip, atomic),
   * returning the business as the read paths do.
   */
  async insertWithLink(business: NewPoboBusiness, link: NewAgreementLink): Promise<PoboBusinessRow> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_insert_with_link',
      text: `WITH business AS (
               INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country,
                                            allow_naira_collection, wallet_index, evm_address, svm_address)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
               RETURNING ${POBO_BUSINESS_COLUMNS}
             ), link AS (
               INSERT INTO agreement_links (id, business_id, token_hash, expires_at) VALUES ($11, $1, $12, $13)
             )
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
        link.id,
        link.tokenHash,
        link.expiresAt,
      ],
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
