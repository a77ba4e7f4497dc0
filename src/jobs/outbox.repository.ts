import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { JobPayload } from './job.definition';

export interface OutboxRow {
  id: string;
  job_name: string;
  job_id: string;
  payload: JobPayload;
}

/** Channel the outbox trigger notifies on commit, so the relay need not poll to be prompt. */
export const OUTBOX_CHANNEL = 'outbox';

@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Oldest rows of the named jobs first; rows another relay holds are skipped, so relays never
   * block each other. Rows of jobs this worker does not know (written by a newer release during a
   * rolling deploy) are left for a worker that does, without holding up the rest.
   */
  claim(manager: EntityManager, jobNames: string[], limit: number): Promise<OutboxRow[]> {
    return manager.query<OutboxRow[]>('SELECT id, job_name, job_id, payload FROM outbox WHERE job_name = ANY($1) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED', [
      jobNames,
      limit,
    ]);
  }

  /** One job, in the transaction of the change that starts it. */
  async insert(manager: EntityManager, job: { jobName: string; jobId: string; payload: JobPayload }): Promise<void> {
    await manager.query('INSERT INTO outbox (job_name, job_id, payload) VALUES ($1, $2, $3::jsonb)', [job.jobName, job.jobId, JSON.stringify(job.payload)]);
  }

  /** Rows not relayed yet, and when the oldest was written (a row exists only until it is relayed, so this reads few). */
  async backlog(manager: EntityManager = this.dataSource.manager): Promise<{ count: number; oldestAt: Date | null }> {
    const [row] = await manager.query<{ count: number; oldest_at: Date | null }[]>(
      'SELECT count(*)::int AS count, (SELECT created_at FROM outbox ORDER BY id LIMIT 1) AS oldest_at FROM outbox',
    );
    return { count: row.count, oldestAt: row.oldest_at };
  }

  async remove(manager: EntityManager, ids: string[]): Promise<void> {
    await manager.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [ids]);
  }
}
