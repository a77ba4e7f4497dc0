import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { JobPayload } from './job.definition';

export interface OutboxRow {
  id: string;
  job_name: string;
  job_id: string;
  payload: JobPayload;
  /** The W3C traceparent of the request that wrote it, while tracing is on. */
  trace_parent: string | null;
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
    return manager.query<OutboxRow[]>(
      'SELECT id, job_name, job_id, payload, trace_parent FROM outbox WHERE job_name = ANY($1) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED',
      [jobNames, limit],
    );
  }

  /** One job, in the transaction of the change that starts it. */
  async insert(manager: EntityManager, job: { jobName: string; jobId: string; payload: JobPayload; traceParent: string | null }): Promise<void> {
    await manager.query('INSERT INTO outbox (job_name, job_id, payload, trace_parent) VALUES ($1, $2, $3::jsonb, $4)', [
      job.jobName,
      job.jobId,
      JSON.stringify(job.payload),
      job.traceParent,
    ]);
  }

  /** Rows not relayed yet, and when the oldest was written (a row exists only until it is relayed, so this reads few). */
  async backlog(): Promise<{ count: number; oldestAt: Date | null }> {
    const [row] = await this.dataSource.query<{ count: number; oldest_at: Date | null }[]>(
      'SELECT count(*)::int AS count, (SELECT created_at FROM outbox ORDER BY id LIMIT 1) AS oldest_at FROM outbox',
    );
    return { count: row.count, oldestAt: row.oldest_at };
  }

  async remove(manager: EntityManager, ids: string[]): Promise<void> {
    await manager.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [ids]);
  }
}
