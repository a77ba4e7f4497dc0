import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Every rail event processed, by rail and the rail's event id: a callback delivered twice, or an
 * event seen by callback and again by reconciliation, is acted on once.
 */
@Entity({ name: 'rail_events' })
export class RailEventEntity {
  /** `bank_rail`, `bridge_rail` or `payout_rail`. */
  @PrimaryColumn({ type: 'text' })
  rail: string;

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
