import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import type { ChainName } from '../../config/vault-chains.config';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KeysetList } from '../../common/persistence/keyset-list';
import type { SignedTransfer } from '../chains';
import type { VaultTransferEntity } from './vault-transfer.entity';
import { VAULT_TRANSFER_STATES, VaultTransferStatus } from './vault.states';

/** A transfer as the service reads it (bigints as strings, as pg returns them). */
export type VaultTransferRecord = Pick<
  VaultTransferEntity,
  | 'id'
  | 'merchantId'
  | 'poboUserId'
  | 'vaultTransactionId'
  | 'chain'
  | 'asset'
  | 'amount'
  | 'networkFee'
  | 'fromAddress'
  | 'walletIndex'
  | 'toAddress'
  | 'merchantReference'
  | 'status'
  | 'failureReason'
  | 'stalledReason'
  | 'rawTx'
  | 'txHash'
  | 'nonce'
  | 'validUntil'
  | 'createdAt'
  | 'submittedAt'
  | 'completedAt'
>;

const COLUMNS = `t.id, t.merchant_id AS "merchantId", t.pobo_user_id AS "poboUserId", t.vault_transaction_id AS "vaultTransactionId", t.chain, t.asset,
  t.amount, t.network_fee AS "networkFee", t.from_address AS "fromAddress", t.wallet_index AS "walletIndex", t.to_address AS "toAddress",
  t.merchant_reference AS "merchantReference", t.status, t.failure_reason AS "failureReason", t.stalled_reason AS "stalledReason", t.raw_tx AS "rawTx", t.tx_hash AS "txHash", t.nonce,
  t.valid_until AS "validUntil", t.created_at AS "createdAt", t.submitted_at AS "submittedAt", t.completed_at AS "completedAt"`;

export type NewVaultTransfer = Pick<
  VaultTransferRecord,
  'id' | 'merchantId' | 'poboUserId' | 'vaultTransactionId' | 'chain' | 'fromAddress' | 'walletIndex' | 'toAddress' | 'merchantReference'
> & { amount: number; networkFee: number };

/**
 * The status moves of a transfer and of its line, written with them in the same statement ($1 the
 * transfer, $4 the new status, $5 the cause; `before` the locked rows with their old statuses): a
 * move to the status a row already has is none.
 */
const HISTORY = `h AS (
         INSERT INTO vault_transfer_status_history (vault_transfer_id, from_status, to_status, cause) SELECT id, status, $4, $5 FROM before WHERE status <> $4
       ), hl AS (
         INSERT INTO vault_transaction_status_history (vault_transaction_id, from_status, to_status, cause)
         SELECT vault_transaction_id, line_status, $4, $5 FROM before WHERE line_status <> $4
       )`;

/** SQL of `vault_transfers`, and of each one's line in `vault_transactions`, moved together. */
@Injectable()
export class VaultTransfersRepository {
  private readonly pages: KeysetList<VaultTransferRecord>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'vtr', { table: 'vault_transfers', alias: 't' }, COLUMNS);
  }

  /** The transfer and its line in the vault's transactions, both `pending`. */
  async insert(manager: EntityManager, t: NewVaultTransfer): Promise<void> {
    await manager.query(
      `WITH line AS (
         INSERT INTO vault_transactions (id, merchant_id, pobo_user_id, direction, chain, asset, amount, network_fee, from_address, to_address, status, merchant_reference)
         VALUES ($4, $2, $3, 'transfer', $5, 'USDC', $6, $7, $8, $10, 'pending', $11)
       )
       INSERT INTO vault_transfers (id, merchant_id, pobo_user_id, vault_transaction_id, chain, asset, amount, network_fee, from_address, wallet_index,
                                    to_address, merchant_reference, status)
       VALUES ($1, $2, $3, $4, $5, 'USDC', $6, $7, $8, $9, $10, $11, 'pending')`,
      [t.id, t.merchantId, t.poboUserId, t.vaultTransactionId, t.chain, t.amount, t.networkFee, t.fromAddress, t.walletIndex, t.toAddress, t.merchantReference],
    );
  }

  async find(id: string, manager?: EntityManager): Promise<VaultTransferRecord | undefined> {
    const text = `SELECT ${COLUMNS} FROM vault_transfers t WHERE t.id = $1`;
    if (manager) return (await manager.query<VaultTransferRecord[]>(`${text} FOR UPDATE`, [id]))[0];
    return (await this.pool.query<VaultTransferRecord>(text, [id])).rows[0];
  }

  async findOwned(merchantId: string, id: string): Promise<VaultTransferRecord | undefined> {
    return (await this.pool.query<VaultTransferRecord>(`SELECT ${COLUMNS} FROM vault_transfers t WHERE t.id = $1 AND t.merchant_id = $2`, [id, merchantId]))
      .rows[0];
  }

  page(merchantId: string, limit: number, afterId?: string): Promise<VaultTransferRecord[] | undefined> {
    return this.pages.page(merchantId, limit, afterId);
  }

  /**
   * Serialises, across processes, the signing of one sender's transfers on one chain until the
   * caller's transaction ends: their nonces are handed out under it.
   */
  async lockSender(manager: EntityManager, chain: ChainName, fromAddress: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`vault-sender:${chain}:${fromAddress}`]);
  }

  /** The highest nonce given to the sender's transfers on the chain, or null. */
  async lastNonce(manager: EntityManager, chain: ChainName, fromAddress: string): Promise<bigint | null> {
    const [row] = await manager.query<{ nonce: string | null }[]>(
      `SELECT max(nonce)::text AS nonce FROM vault_transfers WHERE chain = $1 AND from_address = $2 AND nonce IS NOT NULL`,
      [chain, fromAddress],
    );
    return row.nonce === null ? null : BigInt(row.nonce);
  }

  /** The recovery point: the signed transaction, from which the transfer is only ever broadcast again. */
  async recordSigned(manager: EntityManager, id: string, signed: SignedTransfer): Promise<void> {
    await manager.query(
      `WITH t AS (
         UPDATE vault_transfers SET raw_tx = $2, tx_hash = $3, nonce = $4, valid_until = $5, updated_at = now() WHERE id = $1 RETURNING vault_transaction_id
       )
       UPDATE vault_transactions SET tx_hash = $3, updated_at = now() WHERE id = (SELECT vault_transaction_id FROM t)`,
      [id, signed.raw, signed.txHash, signed.nonce === null ? null : String(signed.nonce), signed.validUntil === null ? null : String(signed.validUntil)],
    );
  }

  /**
   * Back to unsigned, and to `pending` with its line if it was `submitted`: a Solana transaction
   * whose blockhash expired without landing, to be signed anew. False when the transfer no longer
   * holds that transaction.
   */
  async forgetSigned(id: string, txHash: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ forgotten: number }>(
      `WITH before AS (
         SELECT t.id, t.status, t.vault_transaction_id, l.status AS line_status
           FROM vault_transfers t JOIN vault_transactions l ON l.id = t.vault_transaction_id
          WHERE t.id = $1 AND t.tx_hash = $2 AND t.status = ANY($3) FOR UPDATE OF t, l
       ), t AS (
         UPDATE vault_transfers v SET status = 'pending', raw_tx = NULL, tx_hash = NULL, valid_until = NULL, updated_at = now()
           FROM before WHERE v.id = before.id RETURNING v.id
       ), l AS (
         UPDATE vault_transactions v SET status = 'pending', tx_hash = NULL, updated_at = now() FROM before WHERE v.id = before.vault_transaction_id
       ), ${HISTORY}
       SELECT count(*)::int AS forgotten FROM t`,
      [id, txHash, ['pending', ...VAULT_TRANSFER_STATES.sourcesOf('pending')], 'pending', 'blockhash_expired'],
    );
    return rows[0].forgotten === 1;
  }

  /**
   * Moves the transfer and its line to `to` from any status `VAULT_TRANSFER_STATES` allows it from,
   * in the caller's transaction, each move recorded in its history with `cause`; false when the
   * transfer is in no such status (another run moved it first).
   */
  async move(
    manager: EntityManager,
    id: string,
    to: VaultTransferStatus,
    cause: string,
    fields: { failureReason?: string; confirmations?: number } = {},
  ): Promise<boolean> {
    const [row] = await manager.query<{ moved: number }[]>(
      `WITH before AS (
         SELECT t.id, t.status, t.vault_transaction_id, l.status AS line_status
           FROM vault_transfers t JOIN vault_transactions l ON l.id = t.vault_transaction_id
          WHERE t.id = $1 AND t.status = ANY($2) FOR UPDATE OF t, l
       ), t AS (
         UPDATE vault_transfers v SET status = $3, failure_reason = COALESCE($6, failure_reason), stalled_reason = NULL, updated_at = now(),
                submitted_at = CASE WHEN $3 = 'submitted' THEN now() ELSE submitted_at END,
                completed_at = CASE WHEN $3 IN ('confirmed', 'failed') THEN now() ELSE completed_at END
           FROM before WHERE v.id = before.id RETURNING v.id
       ), l AS (
         UPDATE vault_transactions v SET status = $3, confirmations = COALESCE($7, confirmations), updated_at = now(),
                confirmed_at = CASE WHEN $3 = 'confirmed' THEN now() ELSE confirmed_at END
           FROM before WHERE v.id = before.vault_transaction_id
       ), ${HISTORY}
       SELECT count(*)::int AS moved FROM t`,
      [id, VAULT_TRANSFER_STATES.sourcesOf(to), to, to, cause, fields.failureReason ?? null, fields.confirmations ?? null],
    );
    return row.moved === 1;
  }

  /**
   * Records why an open transfer cannot move on now (and, its `updated_at` moved, when it was last
   * tried); true when that reason is new, so it is logged once rather than at every try.
   */
  async markStalled(id: string, reason: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ changed: boolean }>(
      `UPDATE vault_transfers t SET stalled_reason = $2, updated_at = now()
         FROM (SELECT id, stalled_reason FROM vault_transfers WHERE id = $1 FOR UPDATE) before
        WHERE t.id = before.id AND t.status IN ('pending', 'submitted')
        RETURNING before.stalled_reason IS DISTINCT FROM $2 AS changed`,
      [id, reason],
    );
    return rows[0]?.changed ?? false;
  }

  /** Clears the reason of a transfer that moved on (a broadcast the node took). */
  async clearStalled(id: string): Promise<void> {
    await this.pool.query(`UPDATE vault_transfers SET stalled_reason = NULL WHERE id = $1 AND stalled_reason IS NOT NULL`, [id]);
  }

  async countConfirmations(id: string, confirmations: number): Promise<void> {
    await this.pool.query(
      `UPDATE vault_transactions SET confirmations = $2, updated_at = now() WHERE id = (SELECT vault_transaction_id FROM vault_transfers WHERE id = $1)`,
      [id, confirmations],
    );
  }

  /** Transfers of the chain in `status`, oldest first; `pending` ones only once older than `olderThanMs` (their request may still be at work). */
  async open(chain: ChainName, status: 'pending' | 'submitted', olderThanMs: number, limit: number): Promise<VaultTransferRecord[]> {
    const { rows } = await this.pool.query<VaultTransferRecord>(
      `SELECT ${COLUMNS} FROM vault_transfers t WHERE t.chain = $1 AND t.status = $2 AND t.updated_at < now() - make_interval(secs => $3 / 1000.0)
        ORDER BY t.created_at LIMIT $4`,
      [chain, status, olderThanMs, limit],
    );
    return rows;
  }

  /** Micro-USDC of the network fees of every confirmed transfer, by vault: the platform's, still at the vault's address. */
  async feesHeld(): Promise<{ poboUserId: string; chain: ChainName; fees: bigint }[]> {
    const { rows } = await this.pool.query<{ pobo_user_id: string; chain: ChainName; fees: string }>(
      `SELECT pobo_user_id, chain, sum(network_fee)::text AS fees FROM vault_transfers WHERE status = 'confirmed' GROUP BY pobo_user_id, chain`,
    );
    return rows.map((row) => ({ poboUserId: row.pobo_user_id, chain: row.chain, fees: BigInt(row.fees) }));
  }
}
