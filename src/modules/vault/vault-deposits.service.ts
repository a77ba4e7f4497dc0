import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { minorFromColumn } from '../../common/money/money';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import type { ChainConfig } from '../../config/vault-chains.config';
import { JobHandler } from '../../jobs';
import { CHAIN_CLIENTS, ChainClient, ChainClients, describeChainError } from '../chains';
import { EventsService, EventType } from '../events';
import { LedgerService } from '../ledger';
import { PoboBusinessesService } from '../pobo-businesses';
import { VAULT_JOBS } from './vault.jobs';
import { mapVaultTransaction, VAULT_ASSET } from './vault.mapper';
import { ChainCursor, PendingDeposit, VaultRepository } from './vault.repository';

/** At most this many blocks (slots) are read per chain per run: a first run after a long stop catches up over several. */
export const MAX_BLOCKS_PER_SCAN = 500n;
const BATCH = 1_000;
/** Deposits credited per database transaction: a burst commits once per hundred, and a transaction stays short. */
const CREDITS_PER_TRANSACTION = 100;

/** Who owns a vault address. */
interface VaultOwner {
  merchantId: string;
  poboUserId: string;
}

/**
 * Deposits into the businesses' vaults. Each run reads every chain from the block after the last
 * one read (`vault_chain_cursors`), records each USDC transfer to a vault as a `pending` deposit
 * (once per transaction and index, in the transaction that moves the cursor, so a restart neither
 * skips nor repeats a block), then settles the pending ones: a deposit whose block is no longer
 * the one it was seen in (a reorganisation) is dropped; one with the chain's confirmations is
 * credited to the business's vault on that chain, in the transaction that marks it confirmed, so
 * exactly once. When the last block read has itself been replaced, the chain is read again from a
 * confirmation depth back: transfers the new blocks hold are found there.
 */
@Injectable()
export class VaultDepositsService {
  private readonly logger = new Logger(VaultDepositsService.name);
  /** The vault addresses known so far, by kind of chain, and the insertion order of the newest business read. */
  private readonly owners = { evm: new Map<string, VaultOwner>(), svm: new Map<string, VaultOwner>() };
  private ownersAfterSeq = '0';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CHAIN_CLIENTS) private readonly clients: ChainClients,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: VaultRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
  ) {}

  /**
   * Every chain, side by side. Each chain's head is read first, then the businesses created since
   * the last run, once for all chains: a deposit in a block up to a head was sent to an address its
   * merchant had, so of a business committed before that head was read, which this read sees. A
   * chain that cannot be read now (its node down) is logged and read on the next run; it holds the
   * others up no more than a failed job would help.
   */
  @JobHandler(VAULT_JOBS.followChains)
  async followChains(): Promise<void> {
    const chains = this.config.vault.chains;
    const heads = await Promise.allSettled(chains.map((chain) => this.clients.get(chain.name)!.head()));
    await this.learnNewVaults();
    const results = await Promise.allSettled(
      chains.map(async (chain, i) => {
        const head = heads[i];
        if (head.status === 'rejected') throw head.reason;
        await this.follow(chain, this.clients.get(chain.name)!, head.value);
      }),
    );
    for (const [i, result] of results.entries()) {
      if (result.status === 'rejected') this.logger.warn({ chain: chains[i].name, err: describeChainError(result.reason) }, 'chain not read this time');
    }
  }

  /** One chain up to `head`: its new blocks, then its pending deposits. */
  async follow(chain: ChainConfig, client: ChainClient, head: bigint): Promise<void> {
    await this.readNewBlocks(chain, client, head);
    await this.settle(chain, client, head);
  }

  private async readNewBlocks(chain: ChainConfig, client: ChainClient, head: bigint): Promise<void> {
    const cursor = await this.repository.cursor(chain.name);
    if (!cursor) {
      // The first run starts at the head: a vault only exists once its business does.
      await this.repository.startCursor(chain.name, { block: head, blockHash: await client.blockHash(head) });
      return;
    }
    const replaced = cursor.block > head || (await client.blockHash(cursor.block)) !== cursor.blockHash;
    const depth = BigInt(chain.confirmations);
    const from = replaced ? max(0n, min(cursor.block, head) - depth + 1n) : cursor.block + 1n;
    const to = min(head, from + MAX_BLOCKS_PER_SCAN - 1n);
    if (from > to) return;
    const owners = chain.kind === 'evm' ? this.owners.evm : this.owners.svm;
    const transfers = await client.usdcTransfersTo(owners, from, to);
    const next: ChainCursor = { block: to, blockHash: await client.blockHash(to) };
    await this.dataSource.transaction(async (manager) => {
      const pending = await this.repository.recordDeposits(
        manager,
        transfers.map((transfer) => {
          const owner = owners.get(transfer.to)!;
          return {
            id: newId('vtx'),
            merchantId: owner.merchantId,
            poboUserId: owner.poboUserId,
            chain: chain.name,
            txHash: transfer.txHash,
            logIndex: transfer.index,
            fromAddress: transfer.from,
            toAddress: transfer.to,
            amount: transfer.amount,
            block: transfer.block,
            blockHash: transfer.blockHash,
          };
        }),
      );
      await this.tell(manager, 'vault.deposit_pending', pending);
      // Another worker read these blocks first: what it recorded stands, and this is rolled back.
      if (!(await this.repository.moveCursor(manager, chain.name, cursor, next))) throw new CursorMovedError(chain.name);
    });
  }

  private async settle(chain: ChainConfig, client: ChainClient, head: bigint): Promise<void> {
    const pending = await this.repository.pendingDeposits(chain.name, BATCH);
    const hashes = new Map<bigint, string | null>();
    for (const block of new Set(pending.map((deposit) => deposit.block))) hashes.set(block, block > head ? null : await client.blockHash(block));
    const counting = new Map<number, string[]>();
    const due: { deposit: PendingDeposit; confirmations: number }[] = [];
    for (const deposit of pending) {
      if (hashes.get(deposit.block) !== deposit.blockHash) {
        await this.dataSource.transaction(async (manager) => {
          if (await this.repository.dropDeposit(manager, deposit.id, deposit.blockHash)) await this.tell(manager, 'vault.deposit_dropped', [deposit.id]);
        });
        this.logger.log({ vaultTransactionId: deposit.id, chain: chain.name, block: String(deposit.block) }, 'deposit dropped: its block left the chain');
        continue;
      }
      const confirmations = Number(head - deposit.block + 1n);
      if (confirmations >= chain.confirmations) due.push({ deposit, confirmations });
      else counting.set(confirmations, [...(counting.get(confirmations) ?? []), deposit.id]);
    }
    for (let i = 0; i < due.length; i += CREDITS_PER_TRANSACTION) await this.credit(chain, due.slice(i, i + CREDITS_PER_TRANSACTION));
    for (const [confirmations, ids] of counting) await this.repository.countConfirmations(ids, confirmations);
  }

  /** The event of each deposit's move, its vault transaction as the list answers it, in the move's transaction. */
  private async tell(manager: EntityManager, type: EventType, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const lines = await this.repository.transactionsOf(manager, ids);
    await this.events.record(
      manager,
      ...lines.map(({ merchantId, ...line }) => ({ merchantId, type, objectId: line.id, object: mapVaultTransaction(line, this.config.vault.chains) })),
    );
  }

  /**
   * Each deposit confirmed and credited to the business's vault on the chain in the same
   * transaction: exactly once. Several share a transaction (one commit for a burst's), and a
   * deposit already confirmed is skipped in it.
   */
  private async credit(chain: ChainConfig, due: { deposit: PendingDeposit; confirmations: number }[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      for (const { deposit, confirmations } of due) {
        if (!(await this.repository.confirmDeposit(manager, deposit.id, deposit.blockHash, confirmations))) continue;
        await this.tell(manager, 'vault.deposit_confirmed', [deposit.id]);
        const amount = minorFromColumn(deposit.amount);
        await this.ledger.post(manager, {
          type: 'vault_deposit',
          sourceId: deposit.id,
          currency: VAULT_ASSET,
          lines: [
            { account: { vault: { merchantId: deposit.merchantId, poboUserId: deposit.poboUserId, chain: chain.name }, kind: 'vault_available' }, amount },
            { account: { platform: `custody_${chain.name}` }, amount: -amount },
          ],
        });
      }
    });
  }

  /** Adds the vaults of businesses created since the last read. */
  private async learnNewVaults(): Promise<void> {
    for (;;) {
      const rows = await this.businesses.vaultsAfter(this.ownersAfterSeq, BATCH);
      for (const row of rows) {
        const owner = { merchantId: row.merchantId, poboUserId: row.id };
        this.owners.evm.set(row.evmAddress, owner);
        this.owners.svm.set(row.svmAddress, owner);
        this.ownersAfterSeq = row.seq;
      }
      if (rows.length < BATCH) return;
    }
  }
}

class CursorMovedError extends Error {
  constructor(chain: string) {
    super(`vault: another worker read ${chain} first`);
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
