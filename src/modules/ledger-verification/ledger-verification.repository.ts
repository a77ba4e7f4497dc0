import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../common/persistence/pg-pool';

export interface VerificationRow {
  trigger: string;
  ok: boolean;
  problems: Record<string, number>;
  open_receivables: number;
  started_at: Date;
  finished_at: Date;
}

/** Runs kept: a month of the schedule's, and every later one. */
const KEEP_DAYS = 31;

/** SQL of `ledger_verifications`. */
@Injectable()
export class LedgerVerificationRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Records a run and forgets those older than a month, in one statement. */
  async record(row: VerificationRow): Promise<void> {
    await this.pool.query(
      `WITH added AS (
         INSERT INTO ledger_verifications (trigger, ok, problems, open_receivables, started_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6)
       )
       DELETE FROM ledger_verifications WHERE finished_at < now() - make_interval(days => $7)`,
      [row.trigger, row.ok, JSON.stringify(row.problems), row.open_receivables, row.started_at, row.finished_at, KEEP_DAYS],
    );
  }

  async latest(): Promise<VerificationRow | null> {
    const { rows } = await this.pool.query<VerificationRow>(
      `SELECT trigger, ok, problems, open_receivables, started_at, finished_at FROM ledger_verifications ORDER BY finished_at DESC LIMIT 1`,
    );
    return rows[0] ?? null;
  }
}
