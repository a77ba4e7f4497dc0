import type { Pool } from 'pg';

/**
 * The SQL of every list: a merchant's rows, newest first by insertion order (`seq`), one named
 * prepared statement per page and scoped to the merchant in the WHERE clause, served by the
 * table's (merchant_id, seq) index. The page after a cursor selects the cursor's own row too
 * (`seq <=`): it comes first exactly when it exists and is the merchant's, since the subquery is
 * NULL, and the result empty, otherwise.
 *
 * `filters` names the list's equality filters (a query name → its column): each is a parameter
 * that is NULL when not asked for, so one prepared statement serves every combination.
 */
export class KeysetList<R extends { id: string }, F extends string = never> {
  private readonly first: string;
  private readonly after: string;
  private readonly filterNames: F[];

  /** `from`: the table and the alias `columns` may use. */
  constructor(
    private readonly pool: Pool,
    private readonly name: string,
    from: { table: string; alias: string },
    columns: string,
    filters: Record<F, string> = {} as Record<F, string>,
  ) {
    const { table, alias } = from;
    this.filterNames = Object.keys(filters) as F[];
    // $1 the merchant, $2.. the filters, then the cursor and the limit.
    const matches = this.filterNames.map((filter, i) => `($${i + 2}::text IS NULL OR ${alias}.${filters[filter]} = $${i + 2})`);
    const next = this.filterNames.length + 2;
    this.first = `SELECT ${columns} FROM ${table} ${alias} WHERE ${[`${alias}.merchant_id = $1`, ...matches].join(' AND ')}
                   ORDER BY ${alias}.seq DESC LIMIT $${next}`;
    // The cursor's row comes first even when it no longer matches the filters (a status moved on
    // since the previous page): the page after it is still the one asked for.
    this.after = `SELECT ${columns} FROM ${table} ${alias}
                   WHERE ${alias}.merchant_id = $1 AND ${alias}.seq <= (SELECT seq FROM ${table} WHERE id = $${next} AND merchant_id = $1)
                     AND (${alias}.id = $${next} OR (${['TRUE', ...matches].join(' AND ')}))
                   ORDER BY ${alias}.seq DESC LIMIT $${next + 1}`;
  }

  /** The `limit` newest rows, or the `limit` after the merchant's row `afterId`; undefined when that is no row of the merchant's. */
  async page(merchantId: string, limit: number, afterId?: string, filter: Partial<Record<F, string>> = {}): Promise<R[] | undefined> {
    const values = [merchantId, ...this.filterNames.map((name) => filter[name] ?? null)];
    if (afterId === undefined) return (await this.pool.query<R>({ name: `${this.name}_list_first`, text: this.first, values: [...values, limit] })).rows;
    const { rows } = await this.pool.query<R>({ name: `${this.name}_list_after`, text: this.after, values: [...values, afterId, limit + 1] });
    return afterCursor(rows, afterId);
  }
}

/**
 * For a list with its own SQL, paged the same way: the page after a cursor selects the cursor's
 * own row first (`seq <=`), so it asks for one row more than the page.
 */
export function rowsToAsk(limit: number, afterId: string | undefined): number {
  return afterId === undefined ? limit : limit + 1;
}

/** The rows after the cursor's, or undefined when the first row is not the cursor's (none of the merchant's). */
export function afterCursor<R extends { id: string }>(rows: R[], afterId: string | undefined): R[] | undefined {
  if (afterId === undefined) return rows;
  return rows[0]?.id === afterId ? rows.slice(1) : undefined;
}
