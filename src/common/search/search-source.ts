/**
 * How one kind of object is found by the dashboard's search, declared by the module that owns its
 * table (the search module composes every declaration into one statement, and reads nothing
 * else of the table). Each key is served by an index that starts with `merchant_id` (the
 * `DashboardSearch` migration), so a search reads at most `MAX_SEARCH_RESULTS` index entries per
 * key however many objects the merchant has:
 * - `idPrefix`: ids by their start (the primary key; ids of one prefix are hex digits after it,
 *   so their order is the same in every collation);
 * - `reference`: the column equal to the text;
 * - `name`: the column starting with the text, without regard to case, on `(lower(name) COLLATE "C")`;
 * - `accountNumber`: the column ending with the digits, on `(reverse(account_number) COLLATE "C")`;
 * - `amount`: the column equal to the amount in minor units of `currency`, newest first, on `(amount, seq)`.
 */
export interface SearchSource<F extends string = string> {
  /** The object's type, as its events name it. */
  kind: string;
  table: string;
  idPrefix: string;
  reference?: string;
  name?: string;
  accountNumber?: string;
  amount?: { column: string; currency: string };
  /** What `label` needs: SQL expressions over the table's columns, each answered as text. */
  fields: Record<F, string>;
  /** What the dashboard shows of a match. */
  label: (fields: Record<F, string>) => string;
}
