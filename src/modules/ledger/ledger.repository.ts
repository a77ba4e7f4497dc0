import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KeysetList } from '../../common/persistence/keyset-list';
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
  poboUserId?: string;
}

export interface BalanceTransactionRow {
  id: string;
  type: BalanceTransactionType;
  amount: string;
  currency: string;
  source_id: string;
  pobo_user_id: string | null;
  created_at: Date;
}

export interface LedgerProblems {
  unbalancedTransactions: string[];
  driftedAccounts: string[];
  negativeMerchantAccounts: string[];
  balanceTransactionMismatches: string[];
  /** Merchants whose 15 minutes' sums (`balance_activity`) differ from their balance transactions. */
  activityMismatches: string[];
}

/** A verification of the ledger: what it found, and how much history it read to find it. */
export interface LedgerVerification {
  problems: LedgerProblems;
  checked: {
    /** When the checkpoint it started from was verified; null when it read everything. */
    since: Date | null;
    ledgerEntries: number;
    balanceTransactions: number;
  };
}

/** `LedgerRepository.daily`'s answer: days as `YYYY-MM-DD`, amounts as minor-unit text. */
export interface DailyRows {
  today: string;
  /** How long today has been going on in the time zone, at the statement's time. */
  secondsIntoToday: number;
  available: string;
  sums: { day: string; type: BalanceTransactionType; amount: string; count: number }[];
}

export interface ReceivableRow {
  source_id: string;
  kind: string;
  currency: string;
  /** Minor units owed to the platform (positive). */
  owed: string;
  opened_at: Date;
}

const BTX_COLUMNS = 'id, type, amount, currency, source_id, pobo_user_id, created_at';

/** The 15 minutes `at` falls in, as `balance_activity` keeps them (a balance transaction's, by its `created_at`). */
const ACTIVITY_BUCKET = (at: string) => `date_bin('15 minutes', ${at}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;

/** The advisory lock one verification holds at a time. */
const VERIFY_LOCK = 'ledger:verify';

/**
 * Whether a row of a ledger table was written since the checkpoint's snapshot ($1; every row when
 * NULL): its writer's xid at or past the snapshot's xmin ($2, which the BRIN index finds) and not
 * among those the snapshot saw. Rows from before checkpoints existed have no xid and count as seen.
 */
const WRITTEN_SINCE = (alias: string) =>
  `($1::text IS NULL OR (${alias}.xid >= $2::bigint AND NOT pg_visible_in_snapshot(${alias}.xid::text::xid8, $1::text::pg_snapshot)))`;

/**
 * `LedgerRepository.post`'s statement. $5/$6: every account and its delta; $7–$10 and $13: the
 * balance transactions; $11: the merchant accounts among them, in id order; $12: the operator's
 * note, if any. `locked` is materialised and sorted before it locks, so the rows are locked in
 * that order, each before the UPDATE reaches it (the UPDATE's balance check then sees the latest
 * committed balance). Nothing is written unless every account exists. `activity` adds the
 * balance transactions to their 15 minutes' sums; it runs after the main query (which reads
 * `moved`, so after the merchant's accounts are locked): postings of one merchant queue on its
 * account first, never on its sums.
 */
const POST_SQL = `WITH present AS (
    SELECT count(*)::int AS n FROM ledger_accounts WHERE id = ANY($5::text[])
  ), complete AS (
    SELECT (SELECT n FROM present) = cardinality($5::text[]) AS ok
  ), locked AS MATERIALIZED (
    SELECT id FROM ledger_accounts WHERE id = ANY($11::text[]) AND (SELECT ok FROM complete) ORDER BY id FOR UPDATE
  ), moved AS (
    UPDATE ledger_accounts a SET balance = a.balance + d.delta
      FROM unnest($5::text[], $6::bigint[]) AS d(id, delta), locked l
     WHERE l.id = d.id AND a.id = d.id AND a.balance + d.delta >= 0
    RETURNING 1
  ), tx AS (
    INSERT INTO ledger_transactions (id, type, source_id, note) SELECT $1, $2, $3, $12 WHERE (SELECT ok FROM complete)
  ), entries AS (
    INSERT INTO ledger_entries (transaction_id, account_id, amount)
    SELECT $1, e.account_id, e.amount FROM unnest($5::text[], $6::bigint[]) AS e(account_id, amount) WHERE (SELECT ok FROM complete)
  ), balance_transactions AS (
    INSERT INTO balance_transactions (id, merchant_id, type, amount, currency, source_id, pobo_user_id, ledger_transaction_id)
    SELECT b.id, b.merchant_id, b.type, b.amount, $4, $3, b.pobo_user_id, $1
      FROM unnest($7::text[], $8::text[], $9::text[], $10::bigint[], $13::text[]) AS b(id, merchant_id, type, amount, pobo_user_id)
     WHERE (SELECT ok FROM complete)
  ), activity AS (
    INSERT INTO balance_activity (merchant_id, currency, bucket, type, amount, count)
    SELECT b.merchant_id, $4, ${ACTIVITY_BUCKET('now()')}, b.type, sum(b.amount), count(*)
      FROM unnest($8::text[], $9::text[], $10::bigint[]) AS b(merchant_id, type, amount)
     WHERE (SELECT ok FROM complete)
     GROUP BY b.merchant_id, b.type
    ON CONFLICT (merchant_id, currency, bucket, type)
    DO UPDATE SET amount = balance_activity.amount + EXCLUDED.amount, count = balance_activity.count + EXCLUDED.count
  )
  SELECT (SELECT n FROM present) AS present, (SELECT count(*)::int FROM moved) AS moved`;

/** One payment's sum in one platform account. */
export interface PositionRow {
  source_id: string;
  kind: string;
  amount: string;
}

/** SQL of the ledger's tables. */
@Injectable()
export class LedgerRepository {
  private readonly pages: KeysetList<BalanceTransactionRow>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'btx', { table: 'balance_transactions', alias: 'b' }, BTX_COLUMNS);
  }

  /**
   * Posts one ledger transaction in one statement, the caller's commit right behind it, so a
   * merchant's accounts stay locked for as short a time as a posting allows. It locks the
   * merchant's accounts in id order (concurrent postings never deadlock), moves their balances,
   * and writes the transaction, its entries and the merchant's balance transactions. Platform
   * accounts are never locked: they keep no balance (see `LedgerAccountEntity`). A merchant account
   * that would go below zero is not moved: the answer is false and the caller's transaction must
   * roll back (the CHECK constraint stands behind this, but an expected refusal should not be a
   * database error). An account's first posting finds it missing and writes nothing; the accounts
   * are then created (at zero: a row proposed with its final balance would meet the CHECK before
   * ON CONFLICT could turn it into an update) and the statement runs again.
   */
  async post(
    manager: EntityManager,
    id: string,
    type: string,
    sourceId: string,
    currency: string,
    accounts: AccountDelta[],
    balanceTransactions: NewBalanceTransaction[],
    note: string | null,
  ): Promise<boolean> {
    const merchantAccounts = accounts.filter((a) => a.merchantId !== null).map((a) => a.id);
    const values = [
      id,
      type,
      sourceId,
      currency,
      accounts.map((a) => a.id),
      accounts.map((a) => String(a.delta)),
      balanceTransactions.map((b) => b.id),
      balanceTransactions.map((b) => b.merchantId),
      balanceTransactions.map((b) => b.type),
      balanceTransactions.map((b) => String(b.amount)),
      merchantAccounts,
      note,
      balanceTransactions.map((b) => b.poboUserId ?? null),
    ];
    let [outcome] = await manager.query<{ present: number; moved: number }[]>(POST_SQL, values);
    if (outcome.present < accounts.length) {
      await manager.query(
        `INSERT INTO ledger_accounts (id, merchant_id, kind, currency, balance)
         SELECT a.id, a.merchant_id, a.kind, $4, CASE WHEN a.merchant_id IS NULL THEN NULL ELSE 0 END
           FROM unnest($1::text[], $2::text[], $3::text[]) AS a(id, merchant_id, kind)
         ON CONFLICT (id) DO NOTHING`,
        [accounts.map((a) => a.id), accounts.map((a) => a.merchantId), accounts.map((a) => a.kind), currency],
      );
      [outcome] = await manager.query<{ present: number; moved: number }[]>(POST_SQL, values);
    }
    return outcome.moved === merchantAccounts.length;
  }

  async balances(merchantId: string, currency: string): Promise<{ kind: string; balance: string }[]> {
    const { rows } = await this.pool.query<{ kind: string; balance: string }>({
      name: 'ledger_merchant_balances',
      text: `SELECT kind, balance FROM ledger_accounts WHERE merchant_id = $1 AND currency = $2`,
      values: [merchantId, currency],
    });
    return rows;
  }

  /** The kept balances of the accounts of `kinds` in `currency`: those of `ids` when given, else every one. */
  async accountBalances(kinds: readonly string[], currency: string, ids?: string[]): Promise<{ id: string; balance: string }[]> {
    const { rows } = await this.pool.query<{ id: string; balance: string }>(
      `SELECT id, balance FROM ledger_accounts WHERE kind = ANY($1) AND currency = $2 AND ($3::text[] IS NULL OR id = ANY($3)) ORDER BY id`,
      [kinds, currency, ids ?? null],
    );
    return rows;
  }

  /**
   * A page of the merchant's businesses that hold an account of `kind` in `currency`, by business
   * id (the id's first part): their accounts of that kind. A business has one per chain, so
   * `perBusiness` × (`businesses`) rows reach the page's businesses; the caller groups them.
   * Served by the partial index on (merchant, business) of the vault's available accounts.
   */
  async accountsByBusiness(
    merchantId: string,
    kind: string,
    currency: string,
    businesses: number,
    perBusiness: number,
    afterPoboUserId?: string,
  ): Promise<{ id: string; balance: string }[]> {
    const { rows } = await this.pool.query<{ id: string; balance: string }>({
      name: 'ledger_accounts_by_business',
      text: `SELECT id, balance FROM ledger_accounts
              WHERE merchant_id = $1 AND kind = $2 AND currency = $3 AND ($4::text IS NULL OR split_part(id, ':', 1) > $4)
              ORDER BY split_part(id, ':', 1), id LIMIT $5`,
      values: [merchantId, kind, currency, afterPoboUserId ?? null, businesses * perBusiness],
    });
    return rows;
  }

  /** The sum of the merchant's accounts of `kind` in `currency` by the id's `part` (a vault account's chain, say). */
  async sumsByIdPart(merchantId: string, kind: string, currency: string, part: number): Promise<{ key: string; balance: string }[]> {
    const { rows } = await this.pool.query<{ key: string; balance: string }>({
      name: 'ledger_sums_by_id_part',
      text: `SELECT split_part(id, ':', $4) AS key, sum(balance)::text AS balance FROM ledger_accounts
              WHERE merchant_id = $1 AND kind = $2 AND currency = $3 GROUP BY 1`,
      values: [merchantId, kind, currency, part],
    });
    return rows;
  }

  /**
   * The merchant's balance transactions of the last `days` days in `timeZone` (today included),
   * summed by day and type from their 15 minutes' sums, with its available balance now, in one
   * statement: one snapshot, so the balance and the sums agree.
   */
  async daily(merchantId: string, availableAccountId: string, currency: string, days: number, timeZone: string): Promise<DailyRows> {
    const { rows } = await this.pool.query<DailyRows>({
      name: 'ledger_daily',
      text: `WITH win AS (SELECT (now() AT TIME ZONE $2)::date AS today)
             SELECT win.today::text AS today,
                    extract(epoch FROM (now() AT TIME ZONE $2) - win.today::timestamp)::int AS "secondsIntoToday",
                    COALESCE((SELECT balance FROM ledger_accounts WHERE id = $5), 0)::text AS available,
                    COALESCE((SELECT json_agg(d) FROM (
                      SELECT (a.bucket AT TIME ZONE $2)::date::text AS day, a.type, sum(a.amount)::text AS amount, sum(a.count)::int AS count
                        FROM balance_activity a
                       WHERE a.merchant_id = $1 AND a.currency = $4 AND a.bucket >= ((win.today - ($3::int - 1))::timestamp AT TIME ZONE $2)
                       GROUP BY 1, 2) d), '[]') AS sums
               FROM win`,
      values: [merchantId, timeZone, days, currency, availableAccountId],
    });
    return rows[0];
  }

  /** A page of the merchant's balance transactions (see `KeysetList`). */
  listBalanceTransactions(merchantId: string, limit: number, afterId?: string): Promise<BalanceTransactionRow[] | undefined> {
    return this.pages.page(merchantId, limit, afterId);
  }

  /**
   * Every receivable still open: per payment (the postings' source) and receivable account, what
   * its entries leave owed, and when the first of them was posted. The platform accounts keep no
   * balance, so this is summed from their entries.
   */
  async openReceivables(): Promise<ReceivableRow[]> {
    const { rows } = await this.pool.query<ReceivableRow>(
      `SELECT t.source_id, a.kind, a.currency, (-sum(e.amount))::text AS owed, min(t.created_at) AS opened_at
         FROM ledger_entries e
         JOIN ledger_accounts a ON a.id = e.account_id
         JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE a.merchant_id IS NULL AND a.kind LIKE 'receivable\\_%'
        GROUP BY t.source_id, a.kind, a.currency
       HAVING sum(e.amount) <> 0
        ORDER BY min(t.created_at)`,
    );
    return rows;
  }

  /** The platform accounts' sums over each payment's postings in `currency`, in the caller's transaction: where their money is. */
  async platformPositions(manager: EntityManager | undefined, sourceIds: string[], currency: string): Promise<PositionRow[]> {
    const text = `SELECT t.source_id, a.kind, sum(e.amount)::text AS amount
         FROM ledger_transactions t
         JOIN ledger_entries e ON e.transaction_id = t.id
         JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.source_id = ANY($1) AND a.merchant_id IS NULL AND a.currency = $2
        GROUP BY t.source_id, a.kind HAVING sum(e.amount) <> 0`;
    if (manager) return manager.query<PositionRow[]>(text, [sourceIds, currency]);
    return (await this.pool.query<PositionRow>(text, [sourceIds, currency])).rows;
  }

  /** The payments whose postings leave a sum other than zero in one of the platform accounts `kinds`. */
  async sourcesOpenIn(kinds: readonly string[], currency: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ source_id: string }>(
      `SELECT DISTINCT source_id FROM (
         SELECT t.source_id
           FROM ledger_entries e
           JOIN ledger_accounts a ON a.id = e.account_id
           JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE a.merchant_id IS NULL AND a.kind = ANY($1) AND a.currency = $2
          GROUP BY t.source_id, a.kind
         HAVING sum(e.amount) <> 0) open
        ORDER BY source_id`,
      [kinds, currency],
    );
    return rows.map((row) => row.source_id);
  }

  /** Whether anything was ever posted to one of the platform accounts `kinds`. */
  async everPostedTo(kinds: readonly string[]): Promise<boolean> {
    const { rows } = await this.pool.query<{ posted: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id WHERE a.merchant_id IS NULL AND a.kind = ANY($1)) AS posted`,
      [kinds],
    );
    return rows[0].posted;
  }

  /**
   * Everything `npm run ledger:verify` checks, as lists of offending ids, over the rows written
   * since the last checkpoint (`full`: over everything, sums counted again from zero). One run at a
   * time (a session lock), in one REPEATABLE READ transaction so every check sees one snapshot;
   * the checkpoint moves to that snapshot only when every check held, so what a failed run found is
   * found again by the next one. The account checks (each balance against its entries' and its
   * balance transactions' sums) cover every account, whatever changed: they read the accounts and
   * the kept sums, never the history.
   */
  async verify(full: boolean): Promise<LedgerVerification> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [VERIFY_LOCK]);
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        const {
          rows: [checkpoint],
        } = await client.query<{ snapshot: string | null; xmin: string | null; verified_at: Date | null; now: string }>(
          `SELECT snapshot, pg_snapshot_xmin(snapshot::pg_snapshot)::text AS xmin, verified_at, pg_current_snapshot()::text AS now FROM ledger_checkpoint`,
        );
        const since = full ? null : checkpoint.snapshot;
        const params = [since, since ? checkpoint.xmin : null];
        if (!since) await client.query('DELETE FROM ledger_checkpoint_accounts');
        const {
          rows: [entries],
        } = await client.query<{ checked: number; unbalanced: string[] }>(
          `WITH written AS (SELECT e.transaction_id, e.account_id, e.amount FROM ledger_entries e WHERE ${WRITTEN_SINCE('e')}),
           summed AS (
             INSERT INTO ledger_checkpoint_accounts (account_id, entries) SELECT account_id, sum(amount) FROM written GROUP BY account_id
             ON CONFLICT (account_id) DO UPDATE SET entries = ledger_checkpoint_accounts.entries + EXCLUDED.entries),
           unbalanced AS (
             SELECT w.transaction_id AS id FROM written w JOIN ledger_accounts a ON a.id = w.account_id GROUP BY w.transaction_id, a.currency HAVING sum(w.amount) <> 0
             UNION
             -- A transaction's entries are written with it, so one without any among them has none.
             SELECT t.id FROM ledger_transactions t WHERE ${WRITTEN_SINCE('t')} AND NOT EXISTS (SELECT 1 FROM written w WHERE w.transaction_id = t.id))
           SELECT (SELECT count(*)::int FROM written) AS checked, ARRAY(SELECT id FROM unbalanced ORDER BY id) AS unbalanced`,
          params,
        );
        const {
          rows: [balances],
        } = await client.query<{ checked: number; activity: string[] }>(
          `WITH written AS (
             SELECT merchant_id, currency, ${ACTIVITY_BUCKET('created_at')} AS bucket, amount FROM balance_transactions b WHERE ${WRITTEN_SINCE('b')}),
           summed AS (
             INSERT INTO ledger_checkpoint_accounts (account_id, balance_transactions)
             SELECT merchant_id || ':available:' || currency, sum(amount) FROM written GROUP BY merchant_id, currency
             ON CONFLICT (account_id) DO UPDATE SET balance_transactions = ledger_checkpoint_accounts.balance_transactions + EXCLUDED.balance_transactions),
           -- The 15 minutes the new balance transactions fell in, summed again whole (all of them, on a full run).
           touched AS (SELECT DISTINCT merchant_id, currency, bucket FROM written),
           kept AS (
             SELECT a.merchant_id, a.currency, a.bucket, a.type, a.amount, a.count FROM balance_activity a
              WHERE $1::text IS NULL OR (a.merchant_id, a.currency, a.bucket) IN (SELECT merchant_id, currency, bucket FROM touched)),
           counted AS (
             SELECT b.merchant_id, b.currency, ${ACTIVITY_BUCKET('b.created_at')} AS bucket, b.type, sum(b.amount) AS amount, count(*)::int AS count
               FROM balance_transactions b
              WHERE $1::text IS NULL
                 OR (b.created_at >= (SELECT min(bucket) FROM touched)
                     AND (b.merchant_id, b.currency, ${ACTIVITY_BUCKET('b.created_at')}) IN (SELECT merchant_id, currency, bucket FROM touched))
              GROUP BY 1, 2, 3, 4)
           SELECT (SELECT count(*)::int FROM written) AS checked,
                  ARRAY(SELECT DISTINCT COALESCE(k.merchant_id, c.merchant_id)
                          FROM kept k FULL JOIN counted c ON c.merchant_id = k.merchant_id AND c.currency = k.currency AND c.bucket = k.bucket AND c.type = k.type
                         WHERE k.amount IS DISTINCT FROM c.amount OR k.count IS DISTINCT FROM c.count) AS activity`,
          params,
        );
        const { rows: accounts } = await client.query<{ id: string; drifted: boolean; negative: boolean; mismatched: boolean }>(
          `SELECT * FROM (
             SELECT a.id, a.balance <> COALESCE(c.entries, 0) AS drifted, a.balance < 0 AS negative,
                    a.kind = 'available' AND a.balance <> COALESCE(c.balance_transactions, 0) AS mismatched
               FROM ledger_accounts a LEFT JOIN ledger_checkpoint_accounts c ON c.account_id = a.id
              WHERE a.balance IS NOT NULL) checked
            WHERE drifted OR negative OR mismatched ORDER BY id`,
        );
        const problems: LedgerProblems = {
          unbalancedTransactions: entries.unbalanced,
          driftedAccounts: accounts.filter((a) => a.drifted).map((a) => a.id),
          negativeMerchantAccounts: accounts.filter((a) => a.negative).map((a) => a.id),
          balanceTransactionMismatches: accounts.filter((a) => a.mismatched).map((a) => a.id),
          activityMismatches: balances.activity,
        };
        const held = (Object.values(problems) as string[][]).every((found) => found.length === 0);
        if (held) {
          await client.query(`UPDATE ledger_checkpoint SET snapshot = $1, verified_at = now(), full_at = CASE WHEN $2 THEN now() ELSE full_at END`, [
            checkpoint.now,
            !since,
          ]);
        }
        await client.query(held ? 'COMMIT' : 'ROLLBACK');
        return {
          problems,
          checked: { since: since ? checkpoint.verified_at : null, ledgerEntries: entries.checked, balanceTransactions: balances.checked },
        };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [VERIFY_LOCK]).catch((err: Error) => (broken = err));
      }
    } finally {
      // A connection that could not give its lock back is closed, which gives it back.
      client.release(broken);
    }
  }
}
