import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KeysetList } from '../../common/persistence/keyset-list';
import type { WithdrawalRecord } from './withdrawal.mapper';
import { WithdrawalEntity } from './withdrawal.entity';

export type NewWithdrawal = Omit<WithdrawalEntity, 'merchant' | 'seq' | 'railPayoutId'>;

const COLUMNS = `id, merchant_reference AS "merchantReference", amount, fee, currency, status, bank_code AS "bankCode",
  account_number AS "accountNumber", account_name AS "accountName", narration, failure_code AS "failureCode",
  failure_message AS "failureMessage", created_at AS "createdAt", updated_at AS "updatedAt", completed_at AS "completedAt"`;

export const WITHDRAWAL_REFERENCE_UNIQUE = 'uq_withdrawals_merchant_reference';

/** The only reader and writer of `withdrawals`; merchant reads are scoped to the merchant in the WHERE clause. */
@Injectable()
export class WithdrawalsRepository {
  private readonly pages: KeysetList<WithdrawalRecord, 'status'>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.pages = new KeysetList(pool, 'wd', { table: 'withdrawals', alias: 'w' }, COLUMNS, { status: 'status' });
  }

  async findOwned(merchantId: string, id: string): Promise<WithdrawalRecord | undefined> {
    const { rows } = await this.pool.query<WithdrawalRecord>({
      name: 'wd_find_owned',
      text: `SELECT ${COLUMNS} FROM withdrawals WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** A withdrawal by id alone (the worker and the rail's callbacks act for no merchant); in `manager`'s transaction when given. */
  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<WithdrawalEntity | null> {
    return manager.findOneBy(WithdrawalEntity, { id });
  }

  async insert(manager: EntityManager, withdrawal: NewWithdrawal): Promise<void> {
    await manager.insert(WithdrawalEntity, withdrawal);
  }

  /** A page of the merchant's withdrawals (see `KeysetList`), in one status when `status` says. */
  list(merchantId: string, filter: { status?: string }, limit: number, afterId?: string): Promise<WithdrawalRecord[] | undefined> {
    return this.pages.page(merchantId, limit, afterId, filter);
  }

  /** Withdrawals still `pending` (payout not with the rail) since longer than `olderThanMs`. */
  async pendingSince(olderThanMs: number, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM withdrawals WHERE status = 'pending' AND updated_at < now() - make_interval(secs => $1 / 1000.0) ORDER BY updated_at LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => row.id);
  }
}
