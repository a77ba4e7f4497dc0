import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { StatusHistoryBase } from '../../common/state-machine/status-history.base';
import { VaultTransferEntity } from './vault-transfer.entity';

/** Every status move of a vault transfer (`broadcast`, `confirmations_reached`, `reverted`, `blockhash_expired`, …). */
@Entity({ name: 'vault_transfer_status_history' })
@Index('idx_vault_transfer_status_history_transfer', ['vaultTransferId', 'id'])
export class VaultTransferStatusHistoryEntity extends StatusHistoryBase {
  @Column({ name: 'vault_transfer_id', type: 'text' })
  vaultTransferId: string;

  @ManyToOne(() => VaultTransferEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'vault_transfer_id' })
  vaultTransfer?: VaultTransferEntity;
}
