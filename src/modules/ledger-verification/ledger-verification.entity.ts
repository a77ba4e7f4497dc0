import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One run of the ledger's verification, by the worker's schedule or by `ledger:verify`: what it found, counted. */
@Entity({ name: 'ledger_verifications' })
@Index('idx_ledger_verifications_finished', ['finishedAt'])
export class LedgerVerificationEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  /** `schedule` (the worker) or `cli` (`npm run ledger:verify`). */
  @Column({ type: 'text' })
  trigger: string;

  @Column({ type: 'boolean' })
  ok: boolean;

  /** How many of each problem it found (`unbalanced`, `overdueReceivables`, …), zeros included. */
  @Column({ type: 'jsonb' })
  problems: Record<string, number>;

  @Column({ name: 'open_receivables', type: 'integer' })
  openReceivables: number;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz' })
  finishedAt: Date;
}
