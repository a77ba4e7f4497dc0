import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** How far reconciliation has read a rail's event list. */
@Entity({ name: 'rail_event_cursors' })
export class RailEventCursorEntity {
  @PrimaryColumn({ type: 'text' })
  rail: string;

  @Column({ name: 'after_event_id', type: 'text', nullable: true })
  afterEventId: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
