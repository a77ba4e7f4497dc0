import { Column, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EventEntity } from './event.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/**
 * One request to an endpoint, as the dashboard shows it: when, the answer's status (none when no
 * answer came: `error` says why), how long it took, the first 1 KB of the answer, and when the
 * next attempt is due (none when this one delivered or was the last).
 */
@Entity({ name: 'webhook_attempts' })
@Index('idx_webhook_attempts_endpoint_seq', ['endpointId', 'seq'])
@Index('idx_webhook_attempts_event', ['eventId'])
export class WebhookAttemptEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'bigint' })
  @Generated('increment')
  seq: string;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpointEntity;

  @Column({ name: 'event_id', type: 'text' })
  eventId: string;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: EventEntity;

  /** 1 for the first attempt of a round. */
  @Column({ type: 'int' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt: Date;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  @Column({ name: 'response_body', type: 'text' })
  responseBody: string;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'next_retry_at', type: 'timestamptz', nullable: true })
  nextRetryAt: Date | null;
}
