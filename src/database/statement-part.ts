/**
 * A piece of SQL that its owner builds and another module's repository runs inside its own
 * statement (as a CTE), so that writes to two modules' tables are one round trip and atomic.
 * `text` numbers its parameters from the position it was built for.
 */
export interface StatementPart {
  text: string;
  values: unknown[];
}
