import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { PG_POOL } from '../../database/database.module';
import { KeysetList } from '../../database/keyset-list';
import type { BalanceTransactionType } from './balance-transaction.entity';

export interface AccountDelta {
  id: string;
  merchantId: string | null;
  kind: string;
  delta: number;
}

export interface NewBalanceTransaction {
  id: string;
  merchantId: string;
  type: BalanceTransactionType;
  amount: number;
}

export interface BalanceTransactionRow {
  id: string;
  type: BalanceTransactionType;
  amount: string;
  currency: string;
  source_id: string;
  created_at: Date;
}

export interface LedgerProblems {
  unbalancedTransactions: string[];
  driftedAccounts: string[];
  negativeMerchantAccounts: string[];
  balanceTransactionMismatches: string[];
}

const BTX_COLUMNS = 'id, type, amount, currency, source_id, created_at';

/** SQL of the ledger's tables. */
@Injectable()
export class LedgerRepository {
  private readonly pages: KeysetList<BalanceTransactionRow>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'btx', { table: 'balance_transactions', alias: 'b' }, BTX_COLUMNS);
  }

  /**
   * Posts one ledger transaction in two statements. The first creates the accounts at first use
   * and locks the merchant's in id order, so concurrent postings never deadlock (a row proposed
   * with its final balance would meet the CHECK before ON CONFLICT could turn it into an update,
   * so they are proposed at zero). Platform accounts are only created, never locked: they keep no
   * balance (see `LedgerAccountEntity`). The second moves the merchant balances and writes the
   * transaction, its entries and the merchant's balance transactions. A merchant account that would
   * go below zero is not moved: the answer is false and the caller's transaction must roll back
   * (the CHECK constraint stands behind this, but an expected refusal should not be a database error).
   */
  async post(manager: EntityManager, id: string, type: string, sourceId: string, currency: string, accounts: AccountDelta[], balanceTransactions: NewBalanceTransaction[]): Promise<boolean> {
    const ids = accounts.map((a) => a.id);
    await manager.query(
      `WITH platform AS (
         INSERT INTO ledger_accounts (id, merchant_id, kind, currency, balance)
         SELECT a.id, NULL, a.kind, $4, NULL FROM unnest($1::text[], $2::text[], $3::text[]) AS a(id, merchant_id, kind) WHERE a.merchant_id IS NULL
         ON CONFLICT (id) DO NOTHING
       )
       INSERT INTO ledger_accounts (id, merchant_id, kind, currency, balance)
       SELECT a.id, a.merchant_id, a.kind, $4, 0 FROM unnest($1::text[], $2::text[], $3::text[]) AS a(id, merchant_id, kind) WHERE a.merchant_id IS NOT NULL ORDER BY a.id
       ON CONFLICT (id) DO UPDATE SET updated_at = now()`,
      [ids, accounts.map((a) => a.merchantId), accounts.map((a) => a.kind), currency],
    );
    const [{ moved }] = await manager.query<{ moved: number }[]>(
      `WITH tx AS (
         INSERT INTO ledger_transactions (id, type, source_id) VALUES ($1, $2, $3)
       ), moved AS (
         UPDATE ledger_accounts a SET balance = a.balance + d.delta FROM unnest($5::text[], $6::bigint[]) AS d(id, delta)
          WHERE a.id = d.id AND a.merchant_id IS NOT NULL AND a.balance + d.delta >= 0
         RETURNING 1
       ), entries AS (
         INSERT INTO ledger_entries (transaction_id, account_id, amount)
         SELECT $1, e.account_id, e.amount FROM unnest($5::text[], $6::bigint[]) AS e(account_id, amount)
       ), balance_transactions AS (
         INSERT INTO balance_transactions (id, merchant_id, type, amount, currency, source_id, ledger_transaction_id)
         SELECT b.id, b.merchant_id, b.type, b.amount, $4, $3, $1 FROM unnest($7::text[], $8::text[], $9::text[], $10::bigint[]) AS b(id, merchant_id, type, amount)
       )
       SELECT count(*)::int AS moved FROM moved`,
      [
        id,
        type,
        sourceId,
        currency,
        ids,
        accounts.map((a) => String(a.delta)),
        balanceTransactions.map((b) => b.id),
        balanceTransactions.map((b) => b.merchantId),
        balanceTransactions.map((b) => b.type),
        balanceTransactions.map((b) => String(b.amount)),
      ],
    );
    return moved === accounts.filter((a) => a.merchantId !== null).length;
  }

  async balances(merchantId: string, currency: string): Promise<{ kind: string; balance: string }[]> {
    const { rows } = await this.pool.query<{ kind: string; balance: string }>({
      name: 'ledger_merchant_balances',
      text: `SELECT kind, balance FROM ledger_accounts WHERE merchant_id = $1 AND currency = $2`,
      values: [merchantId, currency],
    });
    return rows;
  }

  /** A page of the merchant's balance transactions (see `KeysetList`). */
  listBalanceTransactions(merchantId: string, limit: number, afterId?: string): Promise<BalanceTransactionRow[] | undefined> {
    return this.pages.page(merchantId, limit, afterId);
  }

  /** Everything `npm run ledger:verify` checks, as lists of offending ids. */
  async problems(): Promise<LedgerProblems> {
    const ids = async (text: string) => (await this.pool.query<{ id: string }>(text)).rows.map((row) => row.id);
    const [unbalancedTransactions, driftedAccounts, negativeMerchantAccounts, balanceTransactionMismatches] = await Promise.all([
      ids(`SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id LEFT JOIN ledger_accounts a ON a.id = e.account_id
            GROUP BY t.id, a.currency HAVING COALESCE(sum(e.amount), 0) <> 0 OR count(e.id) = 0`),
      ids(`SELECT a.id FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id WHERE a.balance IS NOT NULL GROUP BY a.id HAVING a.balance <> COALESCE(sum(e.amount), 0)`),
      ids(`SELECT id FROM ledger_accounts WHERE merchant_id IS NOT NULL AND balance < 0`),
      ids(`SELECT a.id FROM ledger_accounts a
             LEFT JOIN (SELECT merchant_id, currency, sum(amount) AS total FROM balance_transactions GROUP BY merchant_id, currency) b
               ON b.merchant_id = a.merchant_id AND b.currency = a.currency
            WHERE a.kind = 'available' AND a.merchant_id IS NOT NULL AND a.balance <> COALESCE(b.total, 0)`),
    ]);
    return { unbalancedTransactions, driftedAccounts, negativeMerchantAccounts, balanceTransactionMismatches };
  }
}
