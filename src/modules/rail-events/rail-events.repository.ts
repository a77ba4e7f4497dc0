import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';

const BANK_RAIL = 'bank_rail';

/** SQL of the rail event log and its reconciliation cursor. */
@Injectable()
export class RailEventsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Records the rail's event in the caller's transaction; false when it was processed before. */
  async record(manager: EntityManager, rail: string, id: string, type: string, source: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `INSERT INTO rail_events (rail, id, type, source) VALUES ($1, $2, $3, $4) ON CONFLICT (rail, id) DO NOTHING RETURNING 1`,
      [rail, id, type, source],
    );
    return rows.length === 1;
  }

  async cursor(): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ after_event_id: string | null }>(`SELECT after_event_id FROM rail_event_cursors WHERE rail = $1`, [BANK_RAIL]);
    return rows[0]?.after_event_id ?? undefined;
  }

  async advance(afterEventId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO rail_event_cursors (rail, after_event_id) VALUES ($1, $2) ON CONFLICT (rail) DO UPDATE SET after_event_id = EXCLUDED.after_event_id, updated_at = now()`,
      [BANK_RAIL, afterEventId],
    );
  }
}
