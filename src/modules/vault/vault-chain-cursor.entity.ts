import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * How far the worker has read a chain for deposits: the last block (or slot) it scanned, and
 * that block's hash then, so a reorganisation that replaced it is noticed and re-read.
 */
@Entity({ name: 'vault_chain_cursors' })
export class VaultChainCursorEntity {
  @PrimaryColumn({ type: 'text' })
  chain: string;

  @Column({ type: 'bigint' })
  block: string;

  /** Null when the block was a skipped slot (Solana). */
  @Column({ name: 'block_hash', type: 'text', nullable: true })
  blockHash: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
