import { Inject, Injectable } from '@nestjs/common';
import { decimalsOf, toMinorUnits } from '../../common/money/money';
import { MAX_SEARCH_RESULTS, SEARCH_RANKS, SearchTerms } from '../../common/search/search-terms';
import type { SearchSource } from '../../common/search/search-source';
import { SearchPool } from './search.pool';

/** Every kind the search finds, as their modules declare them. */
export const SEARCH_SOURCES = Symbol('SEARCH_SOURCES');

/** A match as the statement answers it, with the fields its source's label needs. */
export interface SearchRow {
  kind: string;
  id: string;
  createdAt: Date;
  fields: Record<string, string>;
}

/** The highest code point: a name or reversed number starting with the text lies between the text and the text followed by it, byte-wise. */
const HIGHEST = 'chr(1114111)';

/** What a statement answers, and what each of its numbered parameters after $1 (the merchant) carries. */
interface Statement {
  name: string;
  text: string;
  params: ((terms: SearchTerms) => string | number)[];
}

/**
 * The dashboard search's statements, composed from every kind's `SearchSource`: a UNION of one
 * branch per kind and key the terms carry (an id only among its prefix's kind; the end of an
 * account number only for digits; an amount only for a number), each scoped to the merchant and
 * limited, ranked and cut in the statement, so a search is one round trip of at most 20 rows
 * whatever it looks for. One prepared statement per shape of terms (a few dozen at most), each
 * planned once on the search's own connections (see `SearchPool`).
 */
@Injectable()
export class SearchRepository {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly connections: SearchPool,
    @Inject(SEARCH_SOURCES) private readonly sources: readonly SearchSource[],
  ) {}

  /** The merchant's objects that match `terms`, best match first, at most `MAX_SEARCH_RESULTS`. */
  async find(merchantId: string, terms: SearchTerms): Promise<SearchRow[]> {
    const statement = this.statementFor(terms);
    const { rows } = await this.connections.pool.query<SearchRow>({
      name: statement.name,
      text: statement.text,
      values: [merchantId, ...statement.params.map((value) => value(terms))],
    });
    return rows;
  }

  private statementFor(terms: SearchTerms): Statement {
    const idKind = this.sources.find((source) => source.idPrefix === terms.id?.prefix);
    const amounts = this.sources.filter(
      (source) => source.amount && terms.amount !== undefined && toMinorUnits(terms.amount, source.amount.currency) !== undefined,
    );
    const shape = `${idKind?.idPrefix ?? ''}|${terms.digits === undefined ? '' : 'd'}|${amounts.map((source) => source.idPrefix).join(',')}`;
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = compose(`dashboard_search_${this.statements.size}`, this.sources, { idKind, digits: terms.digits !== undefined, amounts });
      this.statements.set(shape, statement);
    }
    return statement;
  }
}

function compose(name: string, sources: readonly SearchSource[], shape: { idKind?: SearchSource; digits: boolean; amounts: SearchSource[] }): Statement {
  const params: Statement['params'] = [];
  const numbered = new Map<string, string>();
  const param = (key: string, value: (terms: SearchTerms) => string | number) => {
    if (!numbered.has(key)) numbered.set(key, `$${params.push(value) + 1}`);
    return numbered.get(key)!;
  };
  const branches = sources.flatMap((source) => {
    const fields = `json_build_object(${Object.entries<string>(source.fields)
      .map(([field, column]) => `'${field}', o.${column}::text`)
      .join(', ')})`;
    const branch = (rank: number, where: string, order: string) =>
      `(SELECT ${rank} AS rank, '${source.kind}' AS kind, o.id, o.created_at AS "createdAt", ${fields} AS fields
          FROM ${source.table} o WHERE o.merchant_id = $1 AND ${where} ORDER BY ${order} LIMIT ${MAX_SEARCH_RESULTS})`;
    const found: string[] = [];
    if (shape.idKind === source) {
      const [from, to] = [param('idFrom', (terms) => terms.id!.from), param('idTo', (terms) => terms.id!.to)];
      found.push(branch(SEARCH_RANKS.id, `o.id >= ${from} AND o.id < ${to}`, 'o.id'));
    }
    const text = () => param('text', (terms) => terms.text);
    if (source.reference) found.push(branch(SEARCH_RANKS.reference, `o.${source.reference} = ${text()}`, 'o.seq DESC'));
    if (source.name) {
      const column = `(lower(o.${source.name}) COLLATE "C")`;
      found.push(branch(SEARCH_RANKS.name, `${column} >= lower(${text()}) AND ${column} < lower(${text()}) || ${HIGHEST}`, column));
    }
    if (source.accountNumber && shape.digits) {
      const reversed = `(reverse(o.${source.accountNumber}) COLLATE "C")`;
      const digits = param('digits', (terms) => terms.digits!);
      found.push(branch(SEARCH_RANKS.accountNumber, `${reversed} >= reverse(${digits}) AND ${reversed} < reverse(${digits}) || ${HIGHEST}`, reversed));
    }
    if (source.amount && shape.amounts.includes(source)) {
      // One parameter per number of decimal places: the amount in those minor units.
      const { column, currency } = source.amount;
      const amount = param(`amount${decimalsOf(currency)}`, (terms) => toMinorUnits(terms.amount, currency)!);
      found.push(branch(SEARCH_RANKS.amount, `o.${column} = ${amount}`, 'o.seq DESC'));
    }
    return found;
  });
  // Each object once, at the best key it matched by; then best match first, newest first within a key.
  const text = `SELECT kind, id, "createdAt", fields FROM (
      SELECT DISTINCT ON (id) * FROM (${branches.join('\nUNION ALL\n')}) found ORDER BY id, rank
    ) best ORDER BY rank, "createdAt" DESC, id LIMIT ${MAX_SEARCH_RESULTS}`;
  return { name, text, params };
}
