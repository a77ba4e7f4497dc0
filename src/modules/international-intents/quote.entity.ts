import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import type { RouteType } from '../cross-border-rails';

/** One priced route of a quote, as stored (minor units; the rate as the provider gave it). */
export interface StoredQuoteOption {
  id: string;
  routeType: RouteType;
  /** NGN per one unit of the quote's currency, a decimal string. */
  exchangeRate: string;
  /** Kobo: the converted amount, the fee, and their sum (what the balance pays). */
  convertedAmount: number;
  fee: number;
  sourceAmount: number;
}

/**
 * A price for paying `amount` of `currency` to a recipient in `destinationCountry` on behalf of
 * one of the merchant's businesses: one option per route, good until `expiresAt`, used by at most
 * one international payment intent (`usedByIntentId`).
 */
@Entity({ name: 'quotes' })
@Index('idx_quotes_merchant_seq', ['merchantId', 'seq'])
export class QuoteEntity extends MerchantOwnedEntity {
  @Column({ name: 'pobo_user_id', type: 'text' })
  poboUserId: string;

  @Column({ name: 'destination_country', type: 'text' })
  destinationCountry: string;

  @Column({ type: 'text' })
  currency: string;

  /** Minor units of `currency`: what the recipient receives. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ type: 'jsonb' })
  options: StoredQuoteOption[];

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_by_intent_id', type: 'text', nullable: true, unique: true })
  usedByIntentId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
