import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { StatusHistoryBase } from '../../common/state-machine/status-history.base';
import { InternationalIntentEntity } from './international-intent.entity';

/** Every status move of an international payment intent (`picked_up`, `bridge_completed`, `compliance_rejected`, …). */
@Entity({ name: 'international_payment_intent_status_history' })
@Index('idx_international_intent_status_history_intent', ['intentId', 'id'])
export class InternationalIntentStatusHistoryEntity extends StatusHistoryBase {
  @Column({ name: 'intent_id', type: 'text' })
  intentId: string;

  @ManyToOne(() => InternationalIntentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'intent_id' })
  intent?: InternationalIntentEntity;
}
