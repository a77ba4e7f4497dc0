import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { EventEntity } from './event.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** `pending` until a 2xx (`delivered`) or the last retry failed (`failed`); a resend makes it `pending` again. */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * One event owed to one endpoint: written in the transaction that records the event (the
 * outbox of webhooks: no event commits without the deliveries it owes), taken by the worker when
 * `nextAttemptAt` has come, held for one attempt by `leasedUntil` (a worker that dies mid-attempt
 * loses the lease, and another sends the same event again), and gone with its event.
 */
@Entity({ name: 'webhook_deliveries' })
@Check('chk_webhook_deliveries_state', `state IN ('pending', 'delivered', 'failed')`)
// The claim reads each endpoint's due rows from the front of its own index. A lease is in no index,
// so taking a row rewrites it in place (the table keeps a fifth of each page free for that).
@Index('idx_webhook_deliveries_due', ['endpointId', 'nextAttemptAt', 'eventId'], { where: `state = 'pending'` })
@Index('idx_webhook_deliveries_event', ['eventId'])
export class WebhookDeliveryEntity {
  @PrimaryColumn({ name: 'endpoint_id', type: 'text' })
  endpointId: string;

  @PrimaryColumn({ name: 'event_id', type: 'text' })
  eventId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpointEntity;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: EventEntity;

  @Column({ type: 'text', default: 'pending' })
  state: WebhookDeliveryState;

  /** Attempts of the current round. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /**
   * Which round of attempts this is: a resend starts a new one (0 attempts, due now), and an
   * attempt of an earlier round still under way then records itself but changes nothing.
   */
  @Column({ type: 'int', default: 0 })
  round: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
