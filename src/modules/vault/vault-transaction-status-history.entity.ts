import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { StatusHistoryBase } from '../../common/state-machine/status-history.base';
import { VaultTransactionEntity } from './vault-transaction.entity';

/** Every status move of a line of a vault's transactions: a deposit's (`confirmations_reached`, `block_replaced`, `reincluded`) or a transfer's. */
@Entity({ name: 'vault_transaction_status_history' })
@Index('idx_vault_transaction_status_history_transaction', ['vaultTransactionId', 'id'])
export class VaultTransactionStatusHistoryEntity extends StatusHistoryBase {
  @Column({ name: 'vault_transaction_id', type: 'text' })
  vaultTransactionId: string;

  @ManyToOne(() => VaultTransactionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'vault_transaction_id' })
  vaultTransaction?: VaultTransactionEntity;
}
