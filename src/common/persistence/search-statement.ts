import type { Pool } from 'pg';
import { toMinorUnits } from '../money/money';
import { MAX_SEARCH_RESULTS, SEARCH_RANKS, SearchTerms } from '../search/search-terms';

/**
 * Which of a table's columns a dashboard search matches, each behind an index that starts with
 * `merchant_id` (see the `DashboardSearch` migration), so a search reads at most
 * `MAX_SEARCH_RESULTS` index entries per key however many objects the merchant has:
 * - `idPrefix`: the table's ids, by their start (the primary key; ids of one prefix are
 *   hex digits after it, so their order is the same in every collation);
 * - `reference`: equal to the text (the merchant's unique reference index);
 * - `name`: starting with the text, without regard to case, on `(lower(name) COLLATE "C")`;
 * - `accountNumber`: ending with the digits, on `(reverse(account_number) COLLATE "C")`;
 * - `amount`: equal to the amount in minor units of `currency`, newest first, on `(amount, seq)`.
 * A name or reversed number is bounded byte-wise (the "C" collation) by the text and the text
 * followed by U+10FFFF, the highest code point: exactly the strings that start with it.
 */
export interface SearchColumns {
  idPrefix: string;
  reference?: string;
  name?: string;
  accountNumber?: string;
  amount?: { column: string; currency: string };
}

const HIGHEST = 'chr(1114111)';

type SearchParam = 'text' | 'digits' | 'amount';

/**
 * A table's dashboard search: one prepared statement, a UNION of one branch per key the table
 * has, each scoped to the merchant and limited; a key the terms do not carry is a NULL parameter,
 * which its branch's index scan answers with nothing.
 */
export class SearchStatement<R> {
  private readonly text: string;
  private readonly params: SearchParam[] = [];

  /** `columns`: what each row answers (with the alias); the rank comes first, as `rank`. */
  constructor(
    private readonly pool: Pool,
    private readonly name: string,
    from: { table: string; alias: string },
    columns: string,
    private readonly match: SearchColumns,
  ) {
    const { table, alias: a } = from;
    const branch = (rank: number, where: string, order: string) =>
      `(SELECT ${rank} AS rank, ${columns} FROM ${table} ${a} WHERE ${a}.merchant_id = $1 AND ${where} ORDER BY ${order} LIMIT ${MAX_SEARCH_RESULTS})`;
    // $1 the merchant, $2/$3 the id range, then the text, the digits and the amount in minor
    // units, each numbered only when a branch uses it (PostgreSQL refuses a parameter it cannot type).
    const param = (key: SearchParam) => `$${this.params.push(key) + 3}`;
    const branches = [branch(SEARCH_RANKS.id, `${a}.id >= $2 AND ${a}.id < $3`, `${a}.id`)];
    const text = match.reference || match.name ? param('text') : '';
    if (match.reference) branches.push(branch(SEARCH_RANKS.reference, `${a}.${match.reference} = ${text}`, `${a}.seq DESC`));
    if (match.name) {
      const name = `(lower(${a}.${match.name}) COLLATE "C")`;
      branches.push(branch(SEARCH_RANKS.name, `${name} >= lower(${text}) AND ${name} < lower(${text}) || ${HIGHEST}`, name));
    }
    if (match.accountNumber) {
      const reversed = `(reverse(${a}.${match.accountNumber}) COLLATE "C")`;
      const digits = param('digits');
      branches.push(branch(SEARCH_RANKS.accountNumber, `${reversed} >= reverse(${digits}) AND ${reversed} < reverse(${digits}) || ${HIGHEST}`, reversed));
    }
    if (match.amount) branches.push(branch(SEARCH_RANKS.amount, `${a}.${match.amount.column} = ${param('amount')}`, `${a}.seq DESC`));
    this.text = branches.join('\nUNION ALL\n');
  }

  /** The merchant's rows that match `terms`, each with the rank of the key it matched by (a row may come once per key). */
  async find(merchantId: string, terms: SearchTerms): Promise<(R & { rank: number })[]> {
    const id = terms.id?.prefix === this.match.idPrefix ? terms.id : undefined;
    const amount = this.match.amount && terms.amount !== undefined ? toMinorUnits(terms.amount, this.match.amount.currency) : undefined;
    const values = { text: terms.text, digits: terms.digits ?? null, amount: amount ?? null };
    const { rows } = await this.pool.query<R & { rank: number }>({
      name: `${this.name}_search`,
      text: this.text,
      values: [merchantId, id?.from ?? null, id?.to ?? null, ...this.params.map((key) => values[key])],
    });
    return rows;
  }
}
