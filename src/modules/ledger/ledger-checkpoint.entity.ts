import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The `xid` column of the append-only ledger tables: the id of the database transaction that wrote
 * the row (64-bit, never wraps; `ledger_writer_xid()`, a function of the migration's, is
 * `pg_current_xact_id()` as bigint), what lets `ledger:verify` read only what was written since its
 * last verified snapshot. NULL on rows written before verification kept checkpoints; every later
 * run counts them as verified. Never read or written by the application.
 */
export const WriterXidColumn = () =>
  Column({ type: 'bigint', nullable: true, default: () => 'ledger_writer_xid()', select: false, insert: false, update: false });

/**
 * The last snapshot of the ledger that `ledger:verify` found whole: every row its snapshot saw was
 * checked, and `ledger_checkpoint_accounts` holds the sums they made. One row, made by the
 * migration; `snapshot` is NULL until the first run that held, so that run reads everything.
 */
@Entity({ name: 'ledger_checkpoint' })
@Check('chk_ledger_checkpoint_one', `id = 1`)
export class LedgerCheckpointEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  /** `pg_current_snapshot()` of the run, as text: which transactions it saw. */
  @Column({ type: 'text', nullable: true })
  snapshot: string | null;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  /** When a run last read the whole history rather than what came after the snapshot before it. */
  @Column({ name: 'full_at', type: 'timestamptz', nullable: true })
  fullAt: Date | null;
}
