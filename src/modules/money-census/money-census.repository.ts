import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { MoneyObjectSource } from '../../common/census/money-object-source';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { MONEY_OBJECT_SOURCES } from './money-census.sources';

export interface CensusRow {
  kind: string;
  status: string;
  count: number;
  /** The oldest unfinished object's creation, among those in this status; null when it is a final one. */
  oldest_unfinished: Date | null;
  stuck: number;
}

export interface StuckRow {
  kind: string;
  id: string;
  merchant_id: string;
  status: string;
  /** When its step's clock started. */
  since: Date;
}

export interface HistoryRow {
  from_status: string;
  to_status: string;
  cause: string;
  /** As JSON gives it. */
  created_at: string;
}

export interface ObjectHistory {
  status: string;
  createdAt: Date;
  moves: HistoryRow[];
}

/** Quoted: the declarations' names are the owners' own identifiers, never input. */
const quoted = (name: string): string => `"${name}"`;
const literal = (value: string): string => `'${value}'`;

/** When the step of an object of `source` started: the declared column of its status. */
function stepClock(source: MoneyObjectSource): string {
  return `CASE status ${Object.entries(source.steps)
    .map(([status, column]) => `WHEN ${literal(status)} THEN ${quoted(column)}`)
    .join(' ')} END`;
}

/** The declared unfinished statuses, as the predicate of each table's index of them (the `MoneyCensus` migration). */
export const unfinished = (source: MoneyObjectSource): string => `status IN (${Object.keys(source.steps).map(literal).join(', ')})`;

/**
 * The money census's SQL, composed once from the owners' declarations: one statement counts the
 * unfinished objects of every kind by status, with the oldest and the stuck, and one lists what
 * is stuck, oldest first, both through each table's index of its unfinished rows; one counts the
 * finished ones, reading every table whole.
 */
@Injectable()
export class MoneyCensusRepository {
  /** The unfinished objects, through each table's index of them (the `MoneyCensus` migration). */
  private readonly unfinishedSql = MONEY_OBJECT_SOURCES.map(
    (source) => `SELECT ${literal(source.kind)} AS kind, status, count(*)::int AS count, min(created_at) AS oldest_unfinished,
        count(*) FILTER (WHERE ${stepClock(source)} < $1)::int AS stuck
       FROM ${quoted(source.table)} WHERE ${unfinished(source)} GROUP BY status`,
  ).join('\nUNION ALL\n');

  /** The finished ones: a read of each whole table. */
  private readonly finishedSql = MONEY_OBJECT_SOURCES.map(
    (source) => `SELECT ${literal(source.kind)} AS kind, status, count(*)::int AS count, NULL::timestamptz AS oldest_unfinished, 0 AS stuck
       FROM ${quoted(source.table)} WHERE NOT (${unfinished(source)}) GROUP BY status`,
  ).join('\nUNION ALL\n');

  private readonly stuckSql = `SELECT * FROM (${MONEY_OBJECT_SOURCES.map(
    (source) => `(SELECT ${literal(source.kind)} AS kind, id, merchant_id, status, ${stepClock(source)} AS since
        FROM ${quoted(source.table)} WHERE ${unfinished(source)} AND ${stepClock(source)} < $1 ORDER BY since LIMIT $2)`,
  ).join('\nUNION ALL\n')}) stuck ORDER BY since LIMIT $2`;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async unfinished(stuckBefore: Date): Promise<CensusRow[]> {
    return (await this.pool.query<CensusRow>(this.unfinishedSql, [stuckBefore])).rows;
  }

  async finished(): Promise<CensusRow[]> {
    return (await this.pool.query<CensusRow>(this.finishedSql)).rows;
  }

  async stuck(stuckBefore: Date, limit: number): Promise<StuckRow[]> {
    return (await this.pool.query<StuckRow>(this.stuckSql, [stuckBefore, limit])).rows;
  }

  /** The object's status and creation, and its moves, oldest first; null for an unknown kind or id. */
  async history(kind: string, id: string): Promise<ObjectHistory | null> {
    const source = MONEY_OBJECT_SOURCES.find((candidate) => candidate.kind === kind);
    if (!source) return null;
    const { rows } = await this.pool.query<{ status: string; created_at: Date; moves: HistoryRow[] | null }>(
      `SELECT o.status, o.created_at,
              (SELECT json_agg(json_build_object('from_status', h.from_status, 'to_status', h.to_status, 'cause', h.cause, 'created_at', h.created_at) ORDER BY h.id)
                 FROM ${quoted(source.history.table)} h WHERE h.${quoted(source.history.column)} = o.id) AS moves
         FROM ${quoted(source.table)} o WHERE o.id = $1`,
      [id],
    );
    const [row] = rows;
    return row ? { status: row.status, createdAt: row.created_at, moves: row.moves ?? [] } : null;
  }
}
