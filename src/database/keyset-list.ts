import type { Pool } from 'pg';

/**
 * The SQL of every list: a merchant's rows, newest first by insertion order (`seq`), one named
 * prepared statement per page and scoped to the merchant in the WHERE clause, served by the
 * table's (merchant_id, seq) index. The page after a cursor selects the cursor's own row too
 * (`seq <=`): it comes first exactly when it exists and is the merchant's, since the subquery is
 * NULL, and the result empty, otherwise.
 */
export class KeysetList<R extends { id: string }> {
  private readonly first: string;
  private readonly after: string;

  /** `from`: the table and the alias `columns` may use. */
  constructor(
    private readonly pool: Pool,
    private readonly name: string,
    from: { table: string; alias: string },
    columns: string,
  ) {
    const { table, alias } = from;
    this.first = `SELECT ${columns} FROM ${table} ${alias} WHERE ${alias}.merchant_id = $1 ORDER BY ${alias}.seq DESC LIMIT $2`;
    this.after = `SELECT ${columns} FROM ${table} ${alias}
                   WHERE ${alias}.merchant_id = $1 AND ${alias}.seq <= (SELECT seq FROM ${table} WHERE id = $2 AND merchant_id = $1)
                   ORDER BY ${alias}.seq DESC LIMIT $3`;
  }

  /** The `limit` newest rows, or the `limit` after the merchant's row `afterId`; undefined when that is no row of the merchant's. */
  async page(merchantId: string, limit: number, afterId?: string): Promise<R[] | undefined> {
    if (afterId === undefined) return (await this.pool.query<R>({ name: `${this.name}_list_first`, text: this.first, values: [merchantId, limit] })).rows;
    const { rows } = await this.pool.query<R>({ name: `${this.name}_list_after`, text: this.after, values: [merchantId, afterId, limit + 1] });
    return rows[0]?.id === afterId ? rows.slice(1) : undefined;
  }
}
