import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { StatusHistoryBase } from '../../common/state-machine/status-history.base';
import { WithdrawalEntity } from './withdrawal.entity';

/** Every status move of a withdrawal (`payout_sent`, `payout_succeeded`, `payout_failed`, `payout_returned`, …). */
@Entity({ name: 'withdrawal_status_history' })
@Index('idx_withdrawal_status_history_withdrawal', ['withdrawalId', 'id'])
export class WithdrawalStatusHistoryEntity extends StatusHistoryBase {
  @Column({ name: 'withdrawal_id', type: 'text' })
  withdrawalId: string;

  @ManyToOne(() => WithdrawalEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'withdrawal_id' })
  withdrawal?: WithdrawalEntity;
}
