import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** The default of the ledger tables' `xid`: the writing transaction's 64-bit id (`pg_current_xact_id()` as bigint; a function of the migration's). */
export const LEDGER_WRITER_XID = 'ledger_writer_xid()';

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
