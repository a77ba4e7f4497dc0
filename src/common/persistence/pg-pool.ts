/**
 * The pg pool behind TypeORM, for the named prepared statements of repositories' hot paths
 * (see docs/architecture.md, Data access). Everything else goes through TypeORM on the same pool.
 * Provided by the database module; a token here, low, so repositories never import the data
 * source that registers every module.
 */
export const PG_POOL = Symbol('PG_POOL');
