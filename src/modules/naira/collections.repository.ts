import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { afterCursor, rowsToAsk } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { CollectionEntity } from './collection.entity';

/** A collection as the API shows it, with the columns it is read with. */
export type CollectionRecord = Pick<
  CollectionEntity,
  'id' | 'poboUserId' | 'amount' | 'currency' | 'senderName' | 'senderBankName' | 'senderAccountNumber' | 'narration' | 'status' | 'returnReason' | 'receivedAt'
>;

const COLUMNS = `id, pobo_user_id AS "poboUserId", amount, currency, sender_name AS "senderName", sender_bank_name AS "senderBankName",
  sender_account_number AS "senderAccountNumber", narration, status, return_reason AS "returnReason", received_at AS "receivedAt"`;

export type NewCollection = Pick<
  CollectionEntity,
  | 'id'
  | 'merchantId'
  | 'poboUserId'
  | 'railTransferId'
  | 'accountNumber'
  | 'currency'
  | 'senderName'
  | 'senderBankName'
  | 'senderAccountNumber'
  | 'narration'
  | 'status'
  | 'returnReason'
  | 'receivedAt'
> & { amount: number };

/** The Naira account a transfer arrived in, share-locked for the transaction that records it. */
export interface AccountOfTransfer {
  businessId: string;
  closed: boolean;
}

/** A returned collection whose money has not gone back yet. */
export interface PendingCollectionReturn {
  railTransferId: string;
  amount: string;
  returnReason: string;
}

/** SQL of `collections` and of the Naira accounts' closing. Merchant reads are scoped to the merchant in the WHERE clause. */
@Injectable()
export class CollectionsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * The account `accountNumber` belongs to, share-locked until the caller's transaction ends: a
   * closing (which locks it for update) is waited for and seen, and transfers into one account
   * are recorded side by side.
   */
  async accountForShare(manager: EntityManager, accountNumber: string): Promise<AccountOfTransfer | undefined> {
    const rows = await manager.query<{ business_id: string; closed: boolean }[]>(
      `SELECT business_id, closed_at IS NOT NULL AS closed FROM naira_accounts WHERE account_number = $1 FOR SHARE`,
      [accountNumber],
    );
    return rows[0] && { businessId: rows[0].business_id, closed: rows[0].closed };
  }

  /** Records the collection; false when the rail's transfer was recorded already. */
  async insert(manager: EntityManager, c: NewCollection): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `INSERT INTO collections (id, merchant_id, pobo_user_id, rail_transfer_id, account_number, amount, currency, sender_name, sender_bank_name,
                                sender_account_number, narration, status, return_reason, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (rail_transfer_id) DO NOTHING RETURNING id`,
      [
        c.id,
        c.merchantId,
        c.poboUserId,
        c.railTransferId,
        c.accountNumber,
        c.amount,
        c.currency,
        c.senderName,
        c.senderBankName,
        c.senderAccountNumber,
        c.narration,
        c.status,
        c.returnReason,
        c.receivedAt,
      ],
    );
    return rows.length === 1;
  }

  async findOwned(merchantId: string, id: string): Promise<CollectionRecord | undefined> {
    const { rows } = await this.pool.query<CollectionRecord>({
      name: 'col_find_owned',
      text: `SELECT ${COLUMNS} FROM collections WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /**
   * A page of one business's collections, newest first, received in [`after`, `before`): the
   * `limit` newest, or the `limit` from the business's collection `afterId` on (it comes first
   * exactly when it is one of the merchant's for this business, as in `KeysetList`); undefined when
   * that is no such collection.
   */
  async page(
    merchantId: string,
    poboUserId: string,
    range: { after?: Date; before?: Date },
    limit: number,
    afterId?: string,
  ): Promise<CollectionRecord[] | undefined> {
    const { rows } = await this.pool.query<CollectionRecord>({
      name: 'col_list',
      text: `SELECT ${COLUMNS} FROM collections
              WHERE merchant_id = $1 AND pobo_user_id = $2
                AND ($3::timestamptz IS NULL OR received_at >= $3) AND ($4::timestamptz IS NULL OR received_at < $4)
                AND ($5::text IS NULL OR seq <= (SELECT seq FROM collections WHERE id = $5 AND merchant_id = $1 AND pobo_user_id = $2))
              ORDER BY seq DESC LIMIT $6`,
      values: [merchantId, poboUserId, range.after ?? null, range.before ?? null, afterId ?? null, rowsToAsk(limit, afterId)],
    });
    return afterCursor(rows, afterId);
  }

  async pendingReturn(id: string): Promise<PendingCollectionReturn | undefined> {
    const { rows } = await this.pool.query<PendingCollectionReturn>(
      `SELECT rail_transfer_id AS "railTransferId", amount, return_reason AS "returnReason" FROM collections WHERE id = $1 AND status = 'returned' AND rail_return_id IS NULL`,
      [id],
    );
    return rows[0];
  }

  /** Records that the money went back; false when it was recorded already. */
  async markReturned(manager: EntityManager, id: string, railReturnId: string): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = await manager.query<[unknown[], number]>(
      `UPDATE collections SET rail_return_id = $2, returned_at = now() WHERE id = $1 AND rail_return_id IS NULL`,
      [id, railReturnId],
    );
    return affected === 1;
  }

  async returnsPending(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM collections WHERE status = 'returned' AND rail_return_id IS NULL ORDER BY id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Closes the business's open account, in the caller's transaction (locked for update); false when it has none open. */
  async close(manager: EntityManager, businessId: string, note: string): Promise<boolean> {
    const [, affected] = await manager.query<[unknown[], number]>(
      `UPDATE naira_accounts SET closed_at = now(), closed_note = $2, updated_at = now() WHERE business_id = $1 AND account_number IS NOT NULL AND closed_at IS NULL`,
      [businessId, note],
    );
    return affected === 1;
  }
}
