import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { afterCursor, KeysetList, rowsToAsk } from '../../common/persistence/keyset-list';
import { placeAfter, StatementPart } from '../../common/persistence/statement-part';
import type { ReturnReason } from './inbound-payment.entity';
import type { NewPaymentIntent, PaymentIntentRecord } from './payment-intent.mapper';

/** The select list producing a `PaymentIntentRecord` (the intent with its payments). */
export const PAYMENT_INTENT_COLUMNS = `pi.id, pi.merchant_reference, pi.amount, pi.currency, pi.status, pi.amount_received,
  pi.expected_sender_bank_name, pi.expected_sender_account_number, pi.account_number, pi.account_name, pi.bank_name, pi.bank_code,
  pi.expires_at, pi.funded_at, pi.confirmed_at, pi.created_at, pi.updated_at,
  COALESCE((SELECT json_agg(json_build_object('id', p.id, 'amount', p.amount, 'sender_bank_name', p.sender_bank_name,
                                              'sender_account_number', p.sender_account_number, 'status', p.status,
                                              'return_reason', p.return_reason, 'received_at', p.received_at) ORDER BY p.received_at, p.id)
              FROM inbound_payments p WHERE p.payment_intent_id = pi.id), '[]'::json) AS payments`;

/** What a list of payment intents may be narrowed to. */
export interface PaymentIntentFilter {
  status?: string;
  merchantReference?: string;
  after?: Date;
  before?: Date;
}

export interface NewInboundPayment {
  id: string;
  paymentIntentId: string;
  railTransferId: string;
  amount: number;
  senderBankName: string;
  senderAccountNumber: string;
  status: 'accepted' | 'returned';
  returnReason: ReturnReason | null;
  receivedAt: Date;
}

export interface PendingReturn {
  id: string;
  rail_transfer_id: string;
  amount: string;
  return_reason: ReturnReason;
}

export const MERCHANT_REFERENCE_UNIQUE = 'uq_payment_intents_merchant_reference';

/**
 * SQL of payment intents and their inbound payments. Reads are scoped to the merchant in the
 * WHERE clause and carry the payments in the same statement.
 */
@Injectable()
export class PaymentIntentsRepository {
  private readonly pages: KeysetList<PaymentIntentRecord>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'pi', { table: 'payment_intents', alias: 'pi' }, PAYMENT_INTENT_COLUMNS);
  }

  /**
   * Inserts a new intent with the parts that commit with it (see `StatementPart`), in one
   * statement: `answered` (the Idempotency-Key's answer, from `IdempotencyService.commitWith`),
   * whose row the intent is written from, and `withPart(after)`, the writes made only when the CTE
   * `after` (the inserted intent) has a row. False when nothing was written (`answered` had no row).
   */
  async insert(intent: NewPaymentIntent, answered: StatementPart, withPart: (after: string) => StatementPart): Promise<boolean> {
    const own = [
      intent.id,
      intent.merchantId,
      intent.merchantReference,
      intent.amount,
      intent.currency,
      intent.expectedSenderBankName,
      intent.expectedSenderAccountNumber,
      intent.virtualAccountId,
      intent.accountNumber,
      intent.accountName,
      intent.bankName,
      intent.bankCode,
      intent.expiresAt,
      intent.createdAt,
    ];
    const [gate, rest] = [placeAfter(answered, own.length), placeAfter(withPart('intent'), own.length + answered.values.length)];
    const { rows } = await this.pool.query<{ inserted: number }>({
      // The answer's part has two forms (with a key and without), so two prepared statements.
      name: `pi_insert_${answered.values.length}`,
      // The values are cast: in a SELECT list they would otherwise be taken for text.
      text: `WITH ${gate.text},
             intent AS (
               INSERT INTO payment_intents (id, merchant_id, merchant_reference, amount, currency, status, expected_sender_bank_name,
                                            expected_sender_account_number, virtual_account_id, account_number, account_name, bank_name,
                                            bank_code, expires_at, created_at, updated_at)
               SELECT $1::text, $2::text, $3::text, $4::bigint, $5::text, 'awaiting_payment', $6::text, $7::text, $8::text, $9::text, $10::text,
                      $11::text, $12::text, $13::timestamptz, $14::timestamptz, $14::timestamptz
                 FROM answered
               RETURNING 1
             ),
             ${rest.text}
             SELECT count(*)::int AS inserted FROM intent`,
      values: [...own, ...gate.values, ...rest.values],
    });
    return rows[0].inserted === 1;
  }

  async findOwned(merchantId: string, id: string): Promise<PaymentIntentRecord | undefined> {
    const { rows } = await this.pool.query<PaymentIntentRecord>({
      name: 'pi_find_owned',
      text: `SELECT ${PAYMENT_INTENT_COLUMNS} FROM payment_intents pi WHERE pi.id = $1 AND pi.merchant_id = $2`,
      values: [id, merchantId],
    });
    return rows[0];
  }

  /** In a transaction, after its changes: the intent as the answer shows it. */
  async read(manager: EntityManager, id: string): Promise<PaymentIntentRecord> {
    const [row] = await manager.query<PaymentIntentRecord[]>(`SELECT ${PAYMENT_INTENT_COLUMNS} FROM payment_intents pi WHERE pi.id = $1`, [id]);
    return row;
  }

  /**
   * A page of the merchant's intents, newest first (see `KeysetList`), narrowed by `filter` when
   * it says anything: created in [`after`, `before`), in `status`, with `merchantReference`.
   */
  async list(merchantId: string, filter: PaymentIntentFilter, limit: number, afterId?: string): Promise<PaymentIntentRecord[] | undefined> {
    if (Object.values(filter).every((value) => value === undefined)) return this.pages.page(merchantId, limit, afterId);
    const { rows } = await this.pool.query<PaymentIntentRecord>({
      name: 'pi_list_filtered',
      text: `SELECT ${PAYMENT_INTENT_COLUMNS} FROM payment_intents pi
              WHERE pi.merchant_id = $1
                AND ($6::text IS NULL OR pi.seq <= (SELECT seq FROM payment_intents WHERE id = $6 AND merchant_id = $1))
                -- The cursor's row comes first even when its status moved on since the previous page.
                AND (pi.id IS NOT DISTINCT FROM $6 OR (
                      ($2::text IS NULL OR pi.status = $2) AND ($3::text IS NULL OR pi.merchant_reference = $3)
                  AND ($4::timestamptz IS NULL OR pi.created_at >= $4) AND ($5::timestamptz IS NULL OR pi.created_at < $5)))
              ORDER BY pi.seq DESC LIMIT $7`,
      values: [
        merchantId,
        filter.status ?? null,
        filter.merchantReference ?? null,
        filter.after ?? null,
        filter.before ?? null,
        afterId ?? null,
        rowsToAsk(limit, afterId),
      ],
    });
    return afterCursor(rows, afterId);
  }

  async idByAccountNumber(manager: EntityManager, accountNumber: string): Promise<string | undefined> {
    const [row] = await manager.query<{ id: string }[]>(`SELECT id FROM payment_intents WHERE account_number = $1`, [accountNumber]);
    return row?.id;
  }

  /** Inserts the payment unless the rail's transfer is already recorded; true when inserted. */
  async insertPayment(manager: EntityManager, p: NewInboundPayment): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `INSERT INTO inbound_payments (id, payment_intent_id, rail_transfer_id, amount, sender_bank_name, sender_account_number, status, return_reason, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (rail_transfer_id) DO NOTHING RETURNING 1`,
      [p.id, p.paymentIntentId, p.railTransferId, p.amount, p.senderBankName, p.senderAccountNumber, p.status, p.returnReason, p.receivedAt],
    );
    return rows.length === 1;
  }

  async pendingReturn(id: string): Promise<PendingReturn | undefined> {
    const { rows } = await this.pool.query<PendingReturn>(
      `SELECT id, rail_transfer_id, amount, return_reason FROM inbound_payments WHERE id = $1 AND status = 'returned' AND rail_return_id IS NULL`,
      [id],
    );
    return rows[0];
  }

  /** Records the rail's return once; false when it was recorded already. */
  async markReturned(manager: EntityManager, id: string, railReturnId: string): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = await manager.query<[unknown[], number]>(
      `UPDATE inbound_payments SET rail_return_id = $2, returned_at = now() WHERE id = $1 AND rail_return_id IS NULL`,
      [id, railReturnId],
    );
    return affected === 1;
  }

  /** Returned payments whose money has not gone back yet, oldest first. */
  async returnsPending(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM inbound_payments WHERE status = 'returned' AND rail_return_id IS NULL ORDER BY received_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  async expiredAwaiting(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM payment_intents WHERE status = 'awaiting_payment' AND expires_at <= now() ORDER BY expires_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }
}
