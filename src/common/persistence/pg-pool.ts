import { Client, type ClientConfig, type Pool } from 'pg';
import { dependencyOutages } from '../errors/dependency-outages';

/**
 * The pg pool behind TypeORM, for the named prepared statements of repositories' hot paths
 * (see docs/architecture.md, Data access). Everything else goes through TypeORM on the same pool.
 * Provided by the database module; a token here, low, so repositories never import the data
 * source that registers every module.
 */
export const PG_POOL = Symbol('PG_POOL');

/** Follows a pool's new connections for the database's outage log: one that connects ends an outage. */
export function watchPool(pool: Pool): Pool {
  pool.on('connect', () => dependencyOutages.recovered('database'));
  return pool;
}

let statements = 0;

/**
 * Statements this process has sent to PostgreSQL over any of its pools (each round trip: a
 * query, an execution of a prepared statement, a BEGIN or a COMMIT), for the operator port's
 * `pg_statements_total` and the bench's statements per operation.
 */
export function statementsSent(): number {
  return statements;
}

/**
 * The connection class of every pool of the service (the `Client` option of pg's Pool, which
 * TypeORM passes through `extra`): pg's own, counting what it sends, and reporting its failures
 * to the database's outage log. Both are done here rather than on a pool's `connect` event, which
 * misses the first connection: TypeORM opens it before anything can listen.
 *
 * The error listener also keeps a connection whose backend ends while it is checked out from
 * ending the process: pg-pool listens for a client's errors only while it is idle, and a
 * checked-out client whose backend is terminated between statements emits 'error' at once. Its
 * holder sees the failure on its next statement (a 503, a retried job), and the pool drops the
 * client when it is released.
 */
export class CountedClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    const send = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      statements++;
      return send(...args);
    }) as Client['query'];
    this.on('error', (err) => dependencyOutages.failed({ dependency: 'database', reason: err.message.split('\n', 1)[0].slice(0, 200) }));
  }
}
