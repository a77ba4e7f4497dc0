import type { Pool } from 'pg';
import { dependencyOutages } from '../errors/dependency-outages';

/**
 * The pg pool behind TypeORM, for the named prepared statements of repositories' hot paths
 * (see docs/architecture.md, Data access). Everything else goes through TypeORM on the same pool.
 * Provided by the database module; a token here, low, so repositories never import the data
 * source that registers every module.
 */
export const PG_POOL = Symbol('PG_POOL');

/**
 * Follows a pool's connections for the database's outage log, and keeps a connection whose
 * backend ends while it is checked out from ending the process: pg-pool listens for a client's
 * errors only while it is idle, and a checked-out client whose backend is terminated between
 * statements emits 'error' at once. Its holder sees the failure on its next statement (a 503, a
 * retried job), and the pool drops the client when it is released.
 */
export function watchPool(pool: Pool): Pool {
  pool.on('connect', (client) => {
    // PostgreSQL answered a new connection: an outage, if one was being logged, is over.
    dependencyOutages.recovered('database');
    client.on('error', (err) => dependencyOutages.failed({ dependency: 'database', reason: err.message.split('\n', 1)[0].slice(0, 200) }));
  });
  return pool;
}
