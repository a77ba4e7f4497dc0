/**
 * Round trips to PostgreSQL per operation, counts that do not depend on the machine: the statements
 * the service's processes sent (their operator ports' `pg_statements_total`, every BEGIN and COMMIT
 * included) and the transactions PostgreSQL committed on the bench database
 * (`pg_stat_database.xact_commit`, read-only ones included), less the bench's own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from 'pg';
import { statementsSent } from '../src/common/persistence/pg-pool';
import { checkAborted } from './processes';

export interface RoundTrips {
  statements: number;
  commits: number;
}

export interface RoundTripSnapshot {
  /** Per operator port: a process that stops between two snapshots leaves its last reading. */
  statements: Map<string, number>;
  commits: number;
  /** The bench's own statements, each an autocommit transaction of its own on the bench database. */
  bench: number;
}

/** The operator ports to read: the API's and every worker running during the operations. */
export type OpsPorts = () => readonly string[];

/**
 * PostgreSQL publishes a backend's counters at most once a second, and one that went idle within
 * that second only after 10 s (`PGSTAT_IDLE_INTERVAL`): every count is read once that has passed.
 */
const COUNTERS_PUBLISHED_MS = 10_500;

/**
 * A snapshot once PostgreSQL's counters have caught up with everything done so far: call it when
 * the operations and all they caused are done. `commits: false` reads only the statements (of
 * processes about to stop) without the wait; the commits are then the previous snapshot's.
 */
export async function roundTripSnapshot(
  pg: Client,
  opsUrls: readonly string[],
  previous?: RoundTripSnapshot,
  { commits = true }: { commits?: boolean } = {},
): Promise<RoundTripSnapshot> {
  const statements = new Map(previous?.statements);
  for (const url of opsUrls) statements.set(url, await statementsOf(url));
  if (!commits) return { statements, commits: previous?.commits ?? 0, bench: previous?.bench ?? 0 };
  await sleep(COUNTERS_PUBLISHED_MS);
  checkAborted();
  // The bench's own backend publishes its counts now rather than in 10 s (it is never idle that long).
  await pg.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await pg.query<{ n: string }>(`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`);
  return { statements, commits: Number(rows[0].n), bench: statementsSent() };
}

/** Statements and commits per operation between two snapshots (the bench's own reads taken out of the commits). */
export function roundTripsPer(before: RoundTripSnapshot, after: RoundTripSnapshot, operations: number): RoundTrips {
  let statements = 0;
  for (const [url, count] of after.statements) statements += count - (before.statements.get(url) ?? 0);
  const commits = after.commits - before.commits - (after.bench - before.bench);
  const per = (n: number) => Math.round((n / operations) * 100) / 100;
  return { statements: per(statements), commits: per(commits) };
}

export function formatRoundTrips(trips: RoundTrips): string {
  return `${trips.statements.toFixed(1)} statements, ${trips.commits.toFixed(1)} commits`;
}

async function statementsOf(opsUrl: string): Promise<number> {
  const response = await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  const match = /^pg_statements_total (\d+)/m.exec(text);
  if (!match) throw new Error(`${opsUrl}/metrics has no pg_statements_total`);
  return Number(match[1]);
}
