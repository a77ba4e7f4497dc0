import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { JobPayload } from './job.definition';

/**
 * Work that must follow a committed change, written in the same transaction as the change and
 * moved to its queue by the worker's relay. A row exists only until it is relayed.
 */
@Entity({ name: 'outbox' })
export class OutboxEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'job_name', type: 'text' })
  jobName: string;

  @Column({ name: 'job_id', type: 'text' })
  jobId: string;

  @Column({ type: 'jsonb' })
  payload: JobPayload;

  /** The W3C traceparent of the request that wrote it (tracing on): the job's spans continue its trace. */
  @Column({ name: 'trace_parent', type: 'text', nullable: true })
  traceParent: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
