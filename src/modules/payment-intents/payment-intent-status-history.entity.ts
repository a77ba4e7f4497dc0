import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { StatusHistoryBase } from '../../common/state-machine/status-history.base';
import { PaymentIntentEntity } from './payment-intent.entity';

/** Every status move of a payment intent (`transfer_received`, `merchant_confirmed`, `expired`). */
@Entity({ name: 'payment_intent_status_history' })
@Index('idx_payment_intent_status_history_intent', ['paymentIntentId', 'id'])
export class PaymentIntentStatusHistoryEntity extends StatusHistoryBase {
  @Column({ name: 'payment_intent_id', type: 'text' })
  paymentIntentId: string;

  @ManyToOne(() => PaymentIntentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'payment_intent_id' })
  paymentIntent?: PaymentIntentEntity;
}
