import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KeysetList } from '../../common/persistence/keyset-list';
import { placeAfter, StatementPart } from '../../common/persistence/statement-part';
import type { PoboBusinessRecord } from './pobo-business.mapper';
import { PoboBusinessEntity } from './pobo-business.entity';

const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The SQL select list producing a `PoboBusinessRecord`. */
export const POBO_BUSINESS_COLUMNS = `id, business_name AS "businessName", country,
  allow_naira_collection AS "allowNairaCollection", naira_collection_status AS "nairaCollectionStatus",
  naira_account_number AS "nairaAccountNumber", naira_account_name AS "nairaAccountName", naira_bank_name AS "nairaBankName", naira_bank_code AS "nairaBankCode",
  wallet_index AS "walletIndex", evm_address AS "evmAddress", svm_address AS "svmAddress", agreement_status AS "agreementStatus",
  kyb_status AS "kybStatus", kyb_pending_requirements AS "kybPendingRequirements",
  ${isoText('kyb_last_synced_at')} AS "kybLastSyncedAt", ${isoText('created_at')} AS "createdAt",
  ${isoText('updated_at')} AS "updatedAt"`;

export type PoboBusinessRow = PoboBusinessRecord;

export type NewPoboBusiness = Pick<
  PoboBusinessEntity,
  'id' | 'merchantId' | 'businessName' | 'email' | 'phoneNumber' | 'country' | 'allowNairaCollection' | 'walletIndex' | 'evmAddress' | 'svmAddress'
>;

/** A business's vault addresses, with its insertion order (see `vaultsAfter`). */
export interface VaultOwnerRow {
  seq: string;
  id: string;
  merchantId: string;
  evmAddress: string;
  svmAddress: string;
}

/**
 * The hot paths of POBO businesses: one named prepared statement per request. Reads are scoped
 * to the merchant in the WHERE clause, so a foreign id can never be read, and served by
 * (merchant_id, seq).
 */
@Injectable()
export class PoboBusinessesRepository {
  private readonly pages: KeysetList<PoboBusinessRow, 'kybStatus'>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.pages = new KeysetList(pool, 'pobo', { table: 'pobo_businesses', alias: 'b' }, POBO_BUSINESS_COLUMNS, { kybStatus: 'kyb_status' });
  }

  async findOwned(merchantId: string, id: string): Promise<PoboBusinessRow | undefined> {
    const { rows } = await this.pool.query<PoboBusinessRow>({
      name: 'pobo_find_owned',
      text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** A business as its GET reads it, in `manager`'s transaction (an event's object, right after a change). */
  async read(manager: EntityManager, id: string): Promise<PoboBusinessRow> {
    const rows = await manager.query<PoboBusinessRow[]>(`SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1`, [id]);
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
    const own = [
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
    ];
    const linked = placeAfter(withPart, own.length);
    const statement = {
      name: 'pobo_insert_with_link',
      text: `WITH business AS (
               INSERT INTO pobo_businesses (id, merchant_id, business_name, email, phone_number, country,
                                            allow_naira_collection, wallet_index, evm_address, svm_address)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
               RETURNING ${POBO_BUSINESS_COLUMNS}
             ), ${linked.text}
             SELECT * FROM business`,
      values: [...own, ...linked.values],
    };
    if (manager) return (await manager.query<PoboBusinessRow[]>(statement.text, statement.values))[0];
    return (await this.pool.query<PoboBusinessRow>(statement)).rows[0];
  }

  /** A business by id alone; in `manager`'s transaction when given. */
  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<PoboBusinessEntity | null> {
    return manager.findOneBy(PoboBusinessEntity, { id });
  }

  /** A page of the merchant's businesses (see `KeysetList`), in one KYB status when `kybStatus` says. */
  list(merchantId: string, filter: { kybStatus?: string }, limit: number, afterId?: string): Promise<PoboBusinessRow[] | undefined> {
    return this.pages.page(merchantId, limit, afterId, filter);
  }

  /** The names of those of `ids` that are the merchant's businesses. */
  async namesOf(merchantId: string, ids: string[]): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ id: string; name: string }>({
      name: 'pobo_names_of',
      text: `SELECT id, business_name AS name FROM pobo_businesses WHERE merchant_id = $1 AND id = ANY($2)`,
      values: [merchantId, ids],
    });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Up to `limit` businesses created after the one of insertion order `afterSeq`, oldest first. */
  async vaultsAfter(afterSeq: string, limit: number): Promise<VaultOwnerRow[]> {
    const { rows } = await this.pool.query<VaultOwnerRow>({
      name: 'pobo_vaults_after',
      text: `SELECT seq, id, merchant_id AS "merchantId", evm_address AS "evmAddress", svm_address AS "svmAddress"
               FROM pobo_businesses WHERE seq > $1 ORDER BY seq LIMIT $2`,
      values: [afterSeq, limit],
    });
    return rows;
  }
}
