import { Check, Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { MerchantOwnedEntity } from '../auth/merchant-owned.entity';
import type { BankCodeType } from '../../common/banking/recipient-bank';
import type { PayoutConfirmation, RouteType } from '../cross-border-rails';
import { INTERNATIONAL_INTENT_STATES, InternationalIntentStatus } from './international-intent.states';

/**
 * A payment to a recipient abroad on behalf of one of the merchant's businesses, funded from its
 * NGN balance at a quote's price. Its id (`ipi_…`) is both rails' idempotency key, so neither leg
 * is ever started twice, and it is fixed (with the Idempotency-Key's claim) before any call.
 */
// The dashboard search's indexes: made by the DashboardSearch migration (expressions TypeORM cannot declare).
@Index('idx_international_payment_intents_search_reference', { synchronize: false })
@Index('idx_international_payment_intents_search_name', { synchronize: false })
@Index('idx_international_payment_intents_search_account', { synchronize: false })
@Index('idx_international_payment_intents_search_amount', { synchronize: false })
// The money census's (MoneyCensus migration): the unfinished rows only.
@Index('idx_international_payment_intents_unfinished', { synchronize: false })
@Entity({ name: 'international_payment_intents' })
@Check('chk_international_payment_intents_status', `"status" IN (${INTERNATIONAL_INTENT_STATES.sqlList()})`)
@Check('chk_international_payment_intents_amounts', `amount > 0 AND source_amount > 0 AND fee >= 0 AND converted_amount + fee = source_amount`)
@Index('idx_international_payment_intents_merchant_seq', ['merchantId', 'seq'])
@Index('idx_international_payment_intents_in_flight', ['updatedAt'], { where: `status NOT IN ('settled', 'rejected')` })
export class InternationalIntentEntity extends MerchantOwnedEntity {
  @Column({ name: 'pobo_user_id', type: 'text' })
  poboUserId: string;

  @Column({ name: 'quote_id', type: 'text', unique: true })
  quoteId: string;

  @Column({ name: 'quote_option_id', type: 'text' })
  quoteOptionId: string;

  @Column({ name: 'route_type', type: 'text' })
  routeType: RouteType;

  @Column({ name: 'destination_country', type: 'text' })
  destinationCountry: string;

  /** Minor units of `currency`: what the recipient receives. */
  @Column({ type: 'bigint' })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  /** Kobo leaving the balance: `convertedAmount + fee`. */
  @Column({ name: 'source_amount', type: 'bigint' })
  sourceAmount: string;

  @Column({ name: 'source_currency', type: 'text' })
  sourceCurrency: string;

  @Column({ name: 'converted_amount', type: 'bigint' })
  convertedAmount: string;

  @Column({ type: 'bigint' })
  fee: string;

  @Column({ name: 'exchange_rate', type: 'text' })
  exchangeRate: string;

  @Column({ name: 'quote_expires_at', type: 'timestamptz' })
  quoteExpiresAt: Date;

  @Column({ name: 'recipient_full_name', type: 'text' })
  recipientFullName: string;

  @Column({ name: 'recipient_email', type: 'text', nullable: true })
  recipientEmail: string | null;

  @Column({ name: 'bank_code_type', type: 'text' })
  bankCodeType: BankCodeType;

  @Column({ name: 'bank_code', type: 'text' })
  bankCode: string;

  @Column({ name: 'account_number', type: 'text', nullable: true })
  accountNumber: string | null;

  @Column({ name: 'purpose_of_transfer', type: 'text' })
  purposeOfTransfer: string;

  @Column({ name: 'payment_reference', type: 'text', nullable: true })
  paymentReference: string | null;

  @Column({ type: 'text' })
  status: InternationalIntentStatus;

  /** Why it was rejected; set only then. */
  @Column({ name: 'admin_note', type: 'text', nullable: true })
  adminNote: string | null;

  @Column({ name: 'bridge_transfer_id', type: 'text', nullable: true })
  bridgeTransferId: string | null;

  @Column({ name: 'payout_id', type: 'text', nullable: true })
  payoutId: string | null;

  /** The payout rail's MT103-style confirmation, from `withdrawal_confirmed` on. */
  @Column({ name: 'payout_confirmation', type: 'jsonb', nullable: true })
  payoutConfirmation: PayoutConfirmation | null;

  /** The unguessable part of the receipt and telex URLs (128 random bits); the URLs are shown only once they apply. */
  @Column({ name: 'receipt_token', type: 'text', unique: true })
  receiptToken: string;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt: Date | null;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
