import { Column, CreateDateColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The columns every money resource's status history shares (one row per move, with its cause);
 * each history entity adds the foreign key to its resource. Append-only, by a trigger.
 */
export abstract class StatusHistoryBase {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'from_status', type: 'text' })
  fromStatus: string;

  @Column({ name: 'to_status', type: 'text' })
  toStatus: string;

  /** Machine-readable, e.g. `transfer_received`, `payout_returned`. */
  @Column({ type: 'text' })
  cause: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
