import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';

/** Why an endpoint is disabled: by a user, by its own `410 Gone`, or after failing every attempt for days. */
export type WebhookDisabledReason = 'user' | 'gone' | 'failing';

/**
 * Where a merchant wants its events pushed, and the secrets that sign them. Secrets are stored
 * sealed (`SecretBox`); after a rotation the previous one keeps signing beside the new one until
 * `previousSecretExpiresAt`. `failingSince`: the first attempt of the current run of failures
 * (none since the last success), from which the endpoint is disabled after the configured time.
 */
@Entity({ name: 'webhook_endpoints' })
@Index('idx_webhook_endpoints_merchant_seq', ['merchantId', 'seq'])
export class WebhookEndpointEntity extends MerchantOwnedEntity {
  @Column({ type: 'text' })
  url: string;

  /** Event types, or `*` for all. */
  @Column({ name: 'enabled_events', type: 'text', array: true })
  enabledEvents: string[];

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: WebhookDisabledReason | null;

  @Column({ name: 'sealed_secret', type: 'text' })
  sealedSecret: string;

  @Column({ name: 'sealed_previous_secret', type: 'text', nullable: true })
  sealedPreviousSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
