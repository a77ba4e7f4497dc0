/**
 * Writes that their owner builds and another module's repository runs inside its own statement,
 * so that writes to several modules' tables are one round trip and atomic. The text is one or
 * more common table expressions (`name AS (…)`, comma-separated, each name prefixed with its
 * owner's), placed in the enclosing statement's WITH list. The owner numbers its parameters from
 * `$1`; the repository that runs it places it with `placeAfter`.
 */
export interface StatementPart {
  text: string;
  values: unknown[];
}

/**
 * `part` renumbered to follow `before` parameters of the enclosing statement. The text depends
 * only on that number, so the composed statement can stay a named prepared statement. Parts are
 * our own SQL, with no `$` inside literals.
 */
export function placeAfter(part: StatementPart, before: number): StatementPart {
  return { text: part.text.replace(/\$(\d+)/g, (_match, n: string) => `$${Number(n) + before}`), values: part.values };
}
