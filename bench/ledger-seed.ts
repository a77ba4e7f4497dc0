/**
 * Confirmed payments written straight into the ledger for the bench's seeded merchants, as a
 * confirmed payment is posted (two balanced entries, the balance transaction, its 15 minutes' sums,
 * the kept balance), so that `ledger:verify` still passes over them. Payment `g` of a merchant is
 * `(1 + g % 5000) × 100` kobo, its ids derived from `prefix` and `g`, so that the intents another
 * seed writes with the same prefix are the payments' sources.
 */
import type { Client } from 'pg';

export interface LedgerPayments {
  merchantId: string;
  /** Ids are `md5('<prefix>-<kind>:' || g)`; the same prefix as the seed of the merchant's intents. */
  prefix: string;
  /** Payments `from + 1` to `to`, the last one now, each `spacing` before the next. */
  from: number;
  to: number;
  spacing: string;
}

export async function seedLedgerPayments(client: Client, { merchantId, prefix, from, to, spacing }: LedgerPayments): Promise<void> {
  const hex = (kind: string) => `substr(md5('${prefix}-${kind}:' || g), 1, 24)`;
  const series = `FROM generate_series($2::int + 1, $3::int) AS g CROSS JOIN LATERAL (SELECT now() - ($3::int - g) * interval '${spacing}' AS at) AS t`;
  const values = [merchantId, from, to];
  await client.query(
    `INSERT INTO ledger_accounts (id, merchant_id, kind, currency, balance) VALUES ($1 || ':available:NGN', $1, 'available', 'NGN', 0) ON CONFLICT (id) DO NOTHING`,
    [merchantId],
  );
  await client.query(
    `INSERT INTO ledger_accounts (id, merchant_id, kind, currency) VALUES ('platform:unconfirmed_collections:NGN', NULL, 'unconfirmed_collections', 'NGN')
     ON CONFLICT (id) DO NOTHING`,
  );
  await client.query(
    `INSERT INTO ledger_transactions (id, type, source_id, note, created_at)
     SELECT 'ltx_' || ${hex('ltx')}, 'payment_confirmed', 'pi_' || ${hex('pi')}, 'seeded by the bench for ' || $1, t.at ${series}`,
    values,
  );
  await client.query(
    `INSERT INTO ledger_entries (transaction_id, account_id, amount)
     SELECT 'ltx_' || ${hex('ltx')}, account, amount
       FROM generate_series($2::int + 1, $3::int) AS g
      CROSS JOIN LATERAL (VALUES ($1 || ':available:NGN', (1 + g % 5000) * 100), ('platform:unconfirmed_collections:NGN', -(1 + g % 5000) * 100)) AS e(account, amount)`,
    values,
  );
  await client.query(
    `INSERT INTO balance_transactions (id, merchant_id, type, amount, currency, source_id, ledger_transaction_id, created_at)
     SELECT 'btx_' || ${hex('btx')}, $1, 'payment', (1 + g % 5000) * 100, 'NGN', 'pi_' || ${hex('pi')}, 'ltx_' || ${hex('ltx')}, t.at ${series}`,
    values,
  );
  // The 15 minutes' sums are rebuilt for the merchant: a bucket may already hold earlier payments.
  await client.query(`DELETE FROM balance_activity WHERE merchant_id = $1`, [merchantId]);
  await client.query(
    `INSERT INTO balance_activity (merchant_id, currency, bucket, type, amount, count)
     SELECT merchant_id, currency, date_bin('15 minutes', created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), type, sum(amount), count(*)
       FROM balance_transactions WHERE merchant_id = $1 GROUP BY 1, 2, 3, 4`,
    [merchantId],
  );
  await client.query(
    `UPDATE ledger_accounts SET balance = balance + (SELECT sum((1 + g % 5000) * 100) FROM generate_series($2::int + 1, $3::int) AS g) WHERE id = $1 || ':available:NGN'`,
    values,
  );
}
