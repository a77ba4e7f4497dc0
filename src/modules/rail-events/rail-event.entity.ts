import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Every bank rail event processed, by the rail's event id: a callback delivered twice, or an
 * event seen by callback and again by reconciliation, is acted on once.
 */
@Entity({ name: 'bank_rail_events' })
export class RailEventEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  type: string;

  /** `callback` or `reconciliation`: how it reached us first. */
  @Column({ type: 'text' })
  source: string;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;
}
