import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KeysetList } from '../../common/persistence/keyset-list';
import { InternationalIntentEntity } from './international-intent.entity';
import type { InternationalIntentRecord, TimelineRow } from './international-intent.mapper';
import type { InternationalIntentStatus } from './international-intent.states';
import { QuoteEntity } from './quote.entity';
import type { QuoteRecord } from './quote.mapper';

/** The SQL select list producing an `InternationalIntentRecord`. */
export const INTERNATIONAL_INTENT_COLUMNS = `id, pobo_user_id AS "poboUserId", quote_id AS "quoteId", quote_option_id AS "quoteOptionId", route_type AS "routeType",
  destination_country AS "destinationCountry", amount, currency, source_amount AS "sourceAmount", source_currency AS "sourceCurrency",
  converted_amount AS "convertedAmount", fee, exchange_rate AS "exchangeRate", quote_expires_at AS "quoteExpiresAt",
  recipient_full_name AS "recipientFullName", recipient_email AS "recipientEmail", bank_code_type AS "bankCodeType", bank_code AS "bankCode",
  account_number AS "accountNumber", purpose_of_transfer AS "purposeOfTransfer", payment_reference AS "paymentReference", status,
  admin_note AS "adminNote", receipt_token AS "receiptToken", processed_at AS "processedAt", settled_at AS "settledAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

const QUOTE_COLUMNS = `id, pobo_user_id AS "poboUserId", destination_country AS "destinationCountry", currency, amount, options,
  expires_at AS "expiresAt", created_at AS "createdAt"`;

/** A quote locked for the transaction that uses it. */
export type LockedQuote = QuoteRecord & Pick<QuoteEntity, 'usedByIntentId'> & { expired: boolean };

/** An intent as created: what the pipeline fills in later is still empty. */
export type NewInternationalIntent = Omit<InternationalIntentEntity, 'merchant' | 'seq' | 'bridgeTransferId' | 'payoutId' | 'payoutConfirmation'>;

export type NewQuote = Omit<QuoteEntity, 'merchant' | 'seq' | 'usedByIntentId'>;

/** Everything a receipt or a telex shows. */
export type ReceiptRecord = InternationalIntentRecord & Pick<InternationalIntentEntity, 'merchantId' | 'bridgeTransferId' | 'payoutId' | 'payoutConfirmation'>;

/**
 * SQL of quotes and international payment intents. Merchant reads are scoped to the merchant in
 * the WHERE clause.
 */
@Injectable()
export class InternationalIntentsRepository {
  private readonly pages: KeysetList<InternationalIntentRecord, 'status'>;
  private readonly quotePages: KeysetList<QuoteRecord>;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.pages = new KeysetList(pool, 'ipi', { table: 'international_payment_intents', alias: 'i' }, INTERNATIONAL_INTENT_COLUMNS, {
      status: 'status',
    });
    this.quotePages = new KeysetList(pool, 'qt', { table: 'quotes', alias: 'q' }, QUOTE_COLUMNS);
  }

  async findOwned(merchantId: string, id: string): Promise<InternationalIntentRecord | undefined> {
    const { rows } = await this.pool.query<InternationalIntentRecord>({
      name: 'ipi_find_owned',
      text: `SELECT ${INTERNATIONAL_INTENT_COLUMNS} FROM international_payment_intents WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** An intent by id alone, for the worker, which acts for no merchant. */
  findById(id: string): Promise<InternationalIntentEntity | null> {
    return this.dataSource.getRepository(InternationalIntentEntity).findOneBy({ id });
  }

  /** Stores the intent and marks its quote used by it, in the caller's transaction. */
  async insertIntent(manager: EntityManager, intent: NewInternationalIntent): Promise<void> {
    await manager.insert(InternationalIntentEntity, intent);
    await manager.update(QuoteEntity, { id: intent.quoteId }, { usedByIntentId: intent.id });
  }

  async insertQuote(manager: EntityManager, quote: NewQuote): Promise<void> {
    await manager.insert(QuoteEntity, quote);
  }

  /** A page of the merchant's intents (see `KeysetList`), in one status when `status` says. */
  list(merchantId: string, filter: { status?: string }, limit: number, afterId?: string): Promise<InternationalIntentRecord[] | undefined> {
    return this.pages.page(merchantId, limit, afterId, filter);
  }

  /** The intent's moves, oldest first (a handful: the pipeline is forward only). */
  async timeline(intentId: string): Promise<TimelineRow[]> {
    const { rows } = await this.pool.query<TimelineRow>({
      name: 'ipi_timeline',
      text: `SELECT from_status AS "fromStatus", to_status AS "toStatus", cause, created_at AS "createdAt"
               FROM international_payment_intent_status_history WHERE intent_id = $1 ORDER BY id`,
      values: [intentId],
    });
    return rows;
  }

  /** A page of the merchant's quotes (see `KeysetList`). */
  listQuotes(merchantId: string, limit: number, afterId?: string): Promise<QuoteRecord[] | undefined> {
    return this.quotePages.page(merchantId, limit, afterId);
  }

  async findByReceiptToken(token: string): Promise<ReceiptRecord | undefined> {
    const { rows } = await this.pool.query<ReceiptRecord>(
      `SELECT ${INTERNATIONAL_INTENT_COLUMNS}, merchant_id AS "merchantId", bridge_transfer_id AS "bridgeTransferId", payout_id AS "payoutId",
              payout_confirmation AS "payoutConfirmation"
         FROM international_payment_intents WHERE receipt_token = $1`,
      [token],
    );
    return rows[0];
  }

  /** Intents not final whose last move is older than `olderThanMs`: their job may be lost, or a callback. */
  async stalledSince(olderThanMs: number, limit: number): Promise<{ id: string; status: InternationalIntentStatus }[]> {
    const { rows } = await this.pool.query<{ id: string; status: InternationalIntentStatus }>(
      `SELECT id, status FROM international_payment_intents
        WHERE status NOT IN ('settled', 'rejected') AND updated_at < now() - make_interval(secs => $1 / 1000.0)
        ORDER BY updated_at LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows;
  }

  /** The intents among `ids` (any merchant's), for the reconciliation of the ledger with the rails. */
  async findMany(ids: string[]): Promise<InternationalIntentRecord[]> {
    const { rows } = await this.pool.query<InternationalIntentRecord>(
      `SELECT ${INTERNATIONAL_INTENT_COLUMNS} FROM international_payment_intents WHERE id = ANY($1)`,
      [ids],
    );
    return rows;
  }

  async findOwnedQuote(merchantId: string, id: string): Promise<QuoteRecord | undefined> {
    const { rows } = await this.pool.query<QuoteRecord>({
      name: 'qt_find_owned',
      text: `SELECT ${QUOTE_COLUMNS} FROM quotes WHERE id = $1 AND merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** The merchant's quote, locked until the caller's transaction ends, with whether it expired by the database's clock. */
  async lockOwnedQuote(manager: EntityManager, merchantId: string, id: string): Promise<LockedQuote | undefined> {
    const rows = await manager.query<LockedQuote[]>(
      `SELECT ${QUOTE_COLUMNS}, used_by_intent_id AS "usedByIntentId", expires_at <= now() AS expired
         FROM quotes WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
      [id, merchantId],
    );
    return rows[0];
  }
}
