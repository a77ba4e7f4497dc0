import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import type { ChainName } from '../../config/vault-chains.config';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { KeysetList } from '../../common/persistence/keyset-list';
import type { VaultTransactionEntity } from './vault-transaction.entity';
import { VAULT_TRANSACTION_STATES } from './vault.states';

/** A vault transaction as the API shows it. */
export type VaultTransactionRecord = Pick<
  VaultTransactionEntity,
  | 'id'
  | 'poboUserId'
  | 'direction'
  | 'chain'
  | 'asset'
  | 'amount'
  | 'networkFee'
  | 'fromAddress'
  | 'toAddress'
  | 'txHash'
  | 'confirmations'
  | 'status'
  | 'merchantReference'
  | 'createdAt'
  | 'confirmedAt'
>;

const COLUMNS = `v.id, v.pobo_user_id AS "poboUserId", v.direction, v.chain, v.asset, v.amount, v.network_fee AS "networkFee",
  v.from_address AS "fromAddress", v.to_address AS "toAddress", v.tx_hash AS "txHash", v.confirmations, v.status,
  v.merchant_reference AS "merchantReference", v.created_at AS "createdAt", v.confirmed_at AS "confirmedAt"`;

/** Where the worker has read a chain to. */
/**
 * A deposit's status move: from one of $2 while still in the block of $3, to $4 (and `set`),
 * recorded in its history with the cause $5, in one statement; answers how many moved (0 or 1).
 */
function depositMove(set = ''): string {
  return `WITH before AS (
      SELECT id, status FROM vault_transactions WHERE id = $1 AND direction = 'deposit' AND status = ANY($2) AND block_hash = $3 FOR UPDATE
    ), moved AS (
      UPDATE vault_transactions v SET status = $4, updated_at = now()${set} FROM before WHERE v.id = before.id RETURNING v.id
    ), history AS (
      INSERT INTO vault_transaction_status_history (vault_transaction_id, from_status, to_status, cause) SELECT id, status, $4, $5 FROM before
    )
    SELECT count(*)::int AS moved FROM moved`;
}

export interface ChainCursor {
  block: bigint;
  blockHash: string | null;
}

/** A deposit seen on a chain, to record. */
export interface SeenDeposit {
  id: string;
  merchantId: string;
  poboUserId: string;
  chain: ChainName;
  txHash: string;
  logIndex: number;
  fromAddress: string | null;
  toAddress: string;
  /** Micro-USDC. */
  amount: bigint;
  block: bigint;
  blockHash: string;
}

/** A deposit waiting for its confirmations. */
export interface PendingDeposit {
  id: string;
  merchantId: string;
  poboUserId: string;
  amount: string;
  block: bigint;
  blockHash: string;
}

/** SQL of the vault's tables. Merchant reads are scoped to the merchant in the WHERE clause. */
@Injectable()
export class VaultRepository {
  private readonly pages: KeysetList<VaultTransactionRecord, 'poboUserId'>;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.pages = new KeysetList(pool, 'vtx', { table: 'vault_transactions', alias: 'v' }, COLUMNS, { poboUserId: 'pobo_user_id' });
  }

  async cursor(chain: ChainName): Promise<ChainCursor | undefined> {
    const { rows } = await this.pool.query<{ block: string; block_hash: string | null }>(`SELECT block, block_hash FROM vault_chain_cursors WHERE chain = $1`, [
      chain,
    ]);
    return rows[0] && { block: BigInt(rows[0].block), blockHash: rows[0].block_hash };
  }

  /** The chain's first cursor; a cursor already there (another worker's) stays. */
  async startCursor(chain: ChainName, cursor: ChainCursor): Promise<void> {
    await this.pool.query(`INSERT INTO vault_chain_cursors (chain, block, block_hash) VALUES ($1, $2, $3) ON CONFLICT (chain) DO NOTHING`, [
      chain,
      String(cursor.block),
      cursor.blockHash,
    ]);
  }

  /**
   * Moves the chain's cursor from `from` to `to`, in the caller's transaction; false when it is no
   * longer at `from` (another worker read the same blocks), and the caller's transaction must then
   * roll back.
   */
  async moveCursor(manager: EntityManager, chain: ChainName, from: ChainCursor, to: ChainCursor): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = await manager.query<[unknown[], number]>(
      `UPDATE vault_chain_cursors SET block = $3, block_hash = $4, updated_at = now()
        WHERE chain = $1 AND block = $2 AND block_hash IS NOT DISTINCT FROM $5`,
      [chain, String(from.block), String(to.block), to.blockHash, from.blockHash],
    );
    return affected === 1;
  }

  /**
   * Records deposits as `pending`, once per (chain, transaction, index), however often and in
   * whatever order they come; answers the ids of those that became pending now (new, or seen again). One seen again in another
   * block (its transaction re-included after a reorganisation) moves there and, if it had been
   * dropped, is pending again; a confirmed one never changes.
   */
  async recordDeposits(manager: EntityManager, seen: SeenDeposit[]): Promise<string[]> {
    // One row per (chain, transaction, index) in the statement, whatever an RPC repeated or
    // reordered: one INSERT … ON CONFLICT cannot touch a row twice. Of repeats, the latest block's stands.
    const unique = new Map<string, SeenDeposit>();
    for (const deposit of seen) {
      const key = `${deposit.chain}:${deposit.txHash}:${deposit.logIndex}`;
      const earlier = unique.get(key);
      if (!earlier || deposit.block >= earlier.block) unique.set(key, deposit);
    }
    const deposits = [...unique.values()];
    if (deposits.length === 0) return [];
    // A dropped deposit seen again is pending again: a move of its status, recorded as such.
    // The history INSERT is the statement itself, so `reincluded` locks its rows before `upserted`
    // moves them (a row this statement already updated would be skipped by FOR UPDATE).
    const reincluded = await manager.query<{ id: string }[]>(
      `WITH seen AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::int[], $10::bigint[], $11::text[])
           AS d(id, merchant_id, pobo_user_id, chain, amount, from_address, to_address, tx_hash, log_index, block_number, block_hash)
       ), reincluded AS (
         SELECT v.id FROM vault_transactions v JOIN seen d ON (v.chain, v.tx_hash, v.log_index) = (d.chain, d.tx_hash, d.log_index)
          WHERE v.direction = 'deposit' AND v.status = 'dropped' AND v.block_hash IS DISTINCT FROM d.block_hash FOR UPDATE OF v
       ), upserted AS (
         INSERT INTO vault_transactions (id, merchant_id, pobo_user_id, direction, chain, asset, amount, from_address, to_address, tx_hash, log_index,
                                         block_number, block_hash, status)
         SELECT d.id, d.merchant_id, d.pobo_user_id, 'deposit', d.chain, 'USDC', d.amount, d.from_address, d.to_address, d.tx_hash, d.log_index,
                d.block_number, d.block_hash, 'pending'
           FROM seen d
         ON CONFLICT (chain, tx_hash, log_index) WHERE direction = 'deposit'
         DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, status = 'pending', confirmations = 0, updated_at = now()
          WHERE vault_transactions.status = ANY($12) AND vault_transactions.block_hash IS DISTINCT FROM EXCLUDED.block_hash
         RETURNING id
       )
       INSERT INTO vault_transaction_status_history (vault_transaction_id, from_status, to_status, cause)
       SELECT id, 'dropped', 'pending', 'reincluded' FROM reincluded WHERE id IN (SELECT id FROM upserted)
       RETURNING vault_transaction_id AS id`,
      [
        deposits.map((d) => d.id),
        deposits.map((d) => d.merchantId),
        deposits.map((d) => d.poboUserId),
        deposits.map((d) => d.chain),
        deposits.map((d) => String(d.amount)),
        deposits.map((d) => d.fromAddress),
        deposits.map((d) => d.toAddress),
        deposits.map((d) => d.txHash),
        deposits.map((d) => d.logIndex),
        deposits.map((d) => String(d.block)),
        deposits.map((d) => d.blockHash),
        ['pending', ...VAULT_TRANSACTION_STATES.sourcesOf('pending')],
      ],
    );
    // New ones have the ids given here: fresh, so present now only if this statement inserted them.
    const inserted = await manager.query<{ id: string }[]>('SELECT id FROM vault_transactions WHERE id = ANY($1)', [deposits.map((d) => d.id)]);
    return [...inserted, ...reincluded].map((row) => row.id);
  }

  /** The chain's pending deposits, oldest block first, at most `limit`. */
  async pendingDeposits(chain: ChainName, limit: number): Promise<PendingDeposit[]> {
    const { rows } = await this.pool.query<{ id: string; merchant_id: string; pobo_user_id: string; amount: string; block_number: string; block_hash: string }>(
      `SELECT id, merchant_id, pobo_user_id, amount, block_number, block_hash FROM vault_transactions
        WHERE direction = 'deposit' AND status = 'pending' AND chain = $1 ORDER BY block_number, id LIMIT $2`,
      [chain, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      merchantId: row.merchant_id,
      poboUserId: row.pobo_user_id,
      amount: row.amount,
      block: BigInt(row.block_number),
      blockHash: row.block_hash,
    }));
  }

  /** Drops the deposit if it is still pending in the block of `blockHash`, which left the canonical chain; false when it was not. */
  async dropDeposit(manager: EntityManager, id: string, blockHash: string): Promise<boolean> {
    const [row] = await manager.query<{ moved: number }[]>(depositMove(), [
      id,
      VAULT_TRANSACTION_STATES.sourcesOf('dropped'),
      blockHash,
      'dropped',
      'block_replaced',
    ]);
    return row.moved === 1;
  }

  /** Vault transactions as the API shows them, with their merchant, in `manager`'s transaction (events' objects). */
  async transactionsOf(manager: EntityManager, ids: string[]): Promise<(VaultTransactionRecord & { merchantId: string })[]> {
    return manager.query(`SELECT ${COLUMNS}, v.merchant_id AS "merchantId" FROM vault_transactions v WHERE v.id = ANY($1) ORDER BY v.seq`, [ids]);
  }

  async countConfirmations(ids: string[], confirmations: number): Promise<void> {
    await this.pool.query(`UPDATE vault_transactions SET confirmations = $2, updated_at = now() WHERE id = ANY($1) AND status = 'pending'`, [
      ids,
      confirmations,
    ]);
  }

  /**
   * Marks a pending deposit, still in the block of `blockHash`, confirmed, in the caller's
   * transaction (the one that credits it); false when it is not (credited already, or moved).
   */
  async confirmDeposit(manager: EntityManager, id: string, blockHash: string, confirmations: number): Promise<boolean> {
    const [row] = await manager.query<{ moved: number }[]>(depositMove(', confirmations = $6, confirmed_at = now()'), [
      id,
      VAULT_TRANSACTION_STATES.sourcesOf('confirmed'),
      blockHash,
      'confirmed',
      'confirmations_reached',
      confirmations,
    ]);
    return row.moved === 1;
  }

  /**
   * Micro-USDC of the merchant's deposits still pending, by business and chain: of `poboUserIds`
   * when given, else of every business (pending deposits are few: they wait minutes at most).
   */
  async pendingOf(merchantId: string, poboUserIds?: string[]): Promise<{ poboUserId: string; chain: ChainName; pending: bigint }[]> {
    const { rows } = await this.pool.query<{ poboUserId: string; chain: ChainName; pending: string }>({
      name: 'vault_pending_of',
      text: `SELECT pobo_user_id AS "poboUserId", chain, sum(amount)::text AS pending FROM vault_transactions
              WHERE merchant_id = $1 AND direction = 'deposit' AND status = 'pending' AND ($2::text[] IS NULL OR pobo_user_id = ANY($2))
              GROUP BY 1, 2`,
      values: [merchantId, poboUserIds ?? null],
    });
    return rows.map((row) => ({ ...row, pending: BigInt(row.pending) }));
  }

  /**
   * Every vault that ever received a deposit: the business, the chain, the address, and the
   * micro-USDC of its deposits still pending (on the chain, not yet in the ledger).
   */
  async depositedVaults(): Promise<{ poboUserId: string; chain: ChainName; address: string; pending: bigint }[]> {
    const { rows } = await this.pool.query<{ pobo_user_id: string; chain: ChainName; to_address: string; pending: string }>(
      `SELECT pobo_user_id, chain, to_address, COALESCE(sum(amount) FILTER (WHERE status = 'pending'), 0)::text AS pending
         FROM vault_transactions WHERE direction = 'deposit' GROUP BY pobo_user_id, chain, to_address ORDER BY pobo_user_id, chain`,
    );
    return rows.map((row) => ({ poboUserId: row.pobo_user_id, chain: row.chain, address: row.to_address, pending: BigInt(row.pending) }));
  }

  /** A page of the merchant's vault transactions, or one business's (see `KeysetList`). */
  page(merchantId: string, poboUserId: string | undefined, limit: number, afterId?: string): Promise<VaultTransactionRecord[] | undefined> {
    return this.pages.page(merchantId, limit, afterId, { poboUserId });
  }
}
