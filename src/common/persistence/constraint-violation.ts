import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';

/**
 * Whether `err` is PostgreSQL refusing a write for the constraint named `constraint`, whether the
 * statement went through TypeORM (which wraps the driver's error) or straight to the pool.
 */
export function violates(err: unknown, constraint: string): boolean {
  const driverError: unknown = err instanceof QueryFailedError ? err.driverError : err;
  return driverError instanceof DatabaseError && driverError.constraint === constraint;
}
