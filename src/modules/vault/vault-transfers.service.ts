import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeyedSerializer } from '../../common/concurrency/keyed-serializer';
import { isId, newId } from '../../common/ids/ids';
import { minorFromColumn, toMinorUnits } from '../../common/money/money';
import { listPage, Page } from '../../common/paging';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { chainNamed, type ChainConfig } from '../../config/vault-chains.config';
import { JobHandler, JobQueues, Outbox } from '../../jobs';
import { CHAIN_CLIENTS, ChainClients, describeChainError, Sender, SignedTransfer, TransferRefusedError } from '../chains';
import { EventsService, EventType } from '../events';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { LedgerService, Posting } from '../ledger';
import { PoboBusinessesService } from '../pobo-businesses';
import { WalletSigner } from '../wallets';
import { isChainAddress, isKeylessAddress, sameAddress, vaultAddressOn } from './chain-address';
import { CreateVaultTransferDto, VaultTransferDto, VaultTransferListQuery } from './dto/vault-transfer.dto';
import { mapVaultTransfer, VAULT_ASSET } from './vault.mapper';
import { AddressCannotReceiveError, AddressInvalidError, VaultKybNotVerifiedError, VaultTransferNotFoundError } from './vault.errors';
import { VAULT_JOBS } from './vault.jobs';
import { VaultTransferRecord, VaultTransfersRepository } from './vault-transfers.repository';
import type { VaultTransferStatus } from './vault.states';

const BATCH = 200;

/** The moves a merchant hears of. */
const TRANSFER_EVENTS: Partial<Record<VaultTransferStatus, EventType>> = {
  submitted: 'vault_transfer.submitted',
  confirmed: 'vault_transfer.confirmed',
  failed: 'vault_transfer.failed',
};

/**
 * Transfers of USDC out of a business's vault. The request reserves `amount + networkFee` (the
 * vault's `vault_available` to `vault_reserved`) with the transfer, atomically, and leaves the
 * chain to the worker: the `vault.send-transfer` job signs it once in the wallet thread (the
 * signed transaction, stored, is the recovery point: from then on it is only ever broadcast
 * again, unchanged: same nonce, same hash) and broadcasts it; `vault.settle-transfers` follows
 * it to the chain's confirmations (the reservation leaves the vault) or a revert (the reservation
 * comes back, once), broadcasting again one the chain does not show.
 */
@Injectable()
export class VaultTransfersService {
  private readonly logger = new Logger(VaultTransfersService.name);
  /** Reservations of one business queue here, not on pooled connections waiting for its vault's row lock. */
  private readonly reservations = new KeyedSerializer();
  /** What kept each chain's transfers from settling at the last run, while it lasts: logged once, not every run. */
  private readonly chainTrouble = new Map<string, string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CHAIN_CLIENTS) private readonly clients: ChainClients,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: VaultTransfersRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
    /** The wallet thread's signatures, as the chains ask for them (`TransferSigning`). */
    private readonly signing: WalletSigner,
    private readonly events: EventsService,
  ) {}

  async create(merchantId: string, dto: CreateVaultTransferDto, claim: IdempotencyClaim | undefined): Promise<VaultTransferDto> {
    if (!isChainAddress(dto.chain, dto.toAddress)) throw new AddressInvalidError(dto.chain, 'toAddress');
    const chain = chainNamed(this.config.vault.chains, dto.chain);
    if (isKeylessAddress(chain, dto.toAddress)) throw new AddressCannotReceiveError(dto.chain, 'keyless');
    const amount = toMinorUnits(dto.amount, VAULT_ASSET)!;
    const networkFee = Number(chain.networkFeeMicro);
    return this.reservations.run(dto.poboUserId, () =>
      this.idempotency.commit(claim, async (manager) => {
        // Share-locked: a KYB verdict changing now waits for this transaction, and is seen.
        const business = await this.businesses.findOwnedForShare(manager, merchantId, dto.poboUserId);
        if (business.kybStatus !== 'verified') throw new VaultKybNotVerifiedError();
        const fromAddress = vaultAddressOn(chain, business);
        // To itself the chain moves nothing (Solana shows no deposit for it), while the ledger would debit.
        if (sameAddress(chain, fromAddress, dto.toAddress)) throw new AddressCannotReceiveError(dto.chain, 'own_vault');
        const id = claim?.resourceId ?? newId('vtr');
        await this.repository.insert(manager, {
          id,
          merchantId,
          poboUserId: business.id,
          vaultTransactionId: newId('vtx'),
          chain: dto.chain,
          amount,
          networkFee,
          fromAddress,
          walletIndex: business.walletIndex,
          toAddress: dto.toAddress,
          merchantReference: dto.merchantReference,
        });
        const transfer = (await this.repository.find(id, manager))!;
        // Refused (insufficient_funds) when the vault's available balance does not cover both: nothing is written.
        await this.ledger.post(manager, this.posting('vault_transfer_reserved', transfer));
        await this.outbox.enqueue(manager, VAULT_JOBS.sendTransfer, { vaultTransferId: id });
        return mapVaultTransfer(transfer, this.config.vault.chains);
      }),
    );
  }

  async get(merchantId: string, id: string): Promise<VaultTransferDto> {
    const row = isId('vtr', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new VaultTransferNotFoundError();
    return mapVaultTransfer(row, this.config.vault.chains);
  }

  list(merchantId: string, query: VaultTransferListQuery): Promise<Page<VaultTransferDto>> {
    return listPage(
      query,
      'vtr',
      (limit, after) => this.repository.page(merchantId, limit, after),
      (row) => mapVaultTransfer(row, this.config.vault.chains),
      (item) => item.vaultTransferId,
    );
  }

  /**
   * Signs the transfer unless it was signed already (then it is that transaction), and broadcasts
   * it. A chain that refuses it fails it; anything else that stops it (a node that does not
   * answer, a gas top-up that cannot be paid) leaves it `pending` with its `stalledReason`, tried
   * again by `settle` once its last try is a lock's length old, rather than retried and logged
   * without end.
   */
  @JobHandler(VAULT_JOBS.sendTransfer)
  async send({ vaultTransferId }: { vaultTransferId: string }): Promise<void> {
    const transfer = await this.repository.find(vaultTransferId);
    if (!transfer || transfer.status !== 'pending') return;
    try {
      const signed = signedOf(transfer) ?? (await this.sign(transfer));
      if (!signed) return;
      await this.clients.get(transfer.chain)!.broadcast(signed, senderOf(transfer), this.signing);
    } catch (err) {
      if (err instanceof TransferRefusedError) await this.fail(transfer, 'refused', err.message);
      else await this.stalled(transfer, err);
      return;
    }
    await this.dataSource.transaction((manager) => this.move(manager, transfer, 'submitted', 'broadcast'));
  }

  /**
   * Every submitted transfer's outcome on its chain: confirmed at the chain's confirmation count,
   * failed on a revert, broadcast again (the same transaction) while the chain does not show it,
   * signed anew only when it can no longer land (a Solana blockhash that expired). And a send job
   * for every transfer still `pending` once its request's lock ran out.
   */
  @JobHandler(VAULT_JOBS.settleTransfers)
  async settle(): Promise<void> {
    for (const chain of this.config.vault.chains) {
      try {
        await this.settleChain(chain);
        if (this.chainTrouble.delete(chain.name)) this.logger.log({ chain: chain.name }, 'transfers settling again');
      } catch (err) {
        // Once per kind of trouble, not at every run of a chain that stays down.
        const trouble = describeChainError(err);
        if (this.chainTrouble.get(chain.name) !== trouble)
          this.logger.warn({ chain: chain.name, err: trouble }, 'transfers not settled; trying again every run');
        this.chainTrouble.set(chain.name, trouble);
      }
    }
  }

  private async settleChain(chain: ChainConfig): Promise<void> {
    const client = this.clients.get(chain.name)!;
    for (const transfer of await this.repository.open(chain.name, 'pending', this.config.idempotency.lockMs, BATCH)) {
      await this.queues.ensure(VAULT_JOBS.sendTransfer, { vaultTransferId: transfer.id });
    }
    const submitted = await this.repository.open(chain.name, 'submitted', 0, BATCH);
    if (submitted.length === 0) return;
    const head = await client.head();
    for (const transfer of submitted) {
      const signed = signedOf(transfer)!;
      const outcome = await client.transferOutcome(signed);
      if (outcome.kind === 'unknown')
        await client.broadcast(signed, senderOf(transfer), this.signing).then(
          () => (transfer.stalledReason === null ? undefined : this.repository.clearStalled(transfer.id)),
          (err: unknown) => this.stalled(transfer, err),
        );
      else if (outcome.kind === 'expired') {
        if (await this.repository.forgetSigned(transfer.id, signed.txHash)) await this.queues.ensure(VAULT_JOBS.sendTransfer, { vaultTransferId: transfer.id });
      } else if (outcome.kind === 'reverted') await this.fail(transfer, 'reverted', `reverted on ${chain.name}: ${outcome.reason}`);
      else {
        const confirmations = Number(head - outcome.block + 1n);
        if (confirmations < chain.confirmations) await this.repository.countConfirmations(transfer.id, Math.max(confirmations, 0));
        else
          await this.dataSource.transaction(async (manager) => {
            if (!(await this.move(manager, transfer, 'confirmed', 'confirmations_reached', { confirmations }))) return;
            await this.ledger.post(manager, this.posting('vault_transfer_confirmed', transfer));
          });
      }
    }
  }

  /**
   * The signature, under the sender's lock, with the next nonce (EVM: above both the chain's count
   * of the vault's transactions and every nonce given before), stored before it is broadcast.
   * Undefined when another run took the transfer on meanwhile.
   */
  private async sign(transfer: VaultTransferRecord): Promise<SignedTransfer | undefined> {
    const client = this.clients.get(transfer.chain)!;
    const sender = senderOf(transfer);
    const floor = await client.prepareSender(sender, this.signing);
    return this.dataSource.transaction(async (manager) => {
      await this.repository.lockSender(manager, transfer.chain, transfer.fromAddress);
      const current = await this.repository.find(transfer.id, manager);
      if (!current || current.status !== 'pending') return undefined;
      const earlier = signedOf(current);
      if (earlier) return earlier;
      const last = floor === null ? null : await this.repository.lastNonce(manager, transfer.chain, transfer.fromAddress);
      const nonce = floor === null ? null : last !== null && last >= floor ? last + 1n : floor;
      const order = { sender, to: transfer.toAddress, amount: BigInt(transfer.amount), nonce, reference: transfer.id };
      const signed = await client.signUsdcTransfer(order, this.signing);
      await this.repository.recordSigned(manager, transfer.id, signed);
      return signed;
    });
  }

  /** Records why the transfer cannot move on now; logged when the reason is new, not at every try. */
  private async stalled(transfer: VaultTransferRecord, err: unknown): Promise<void> {
    const reason = describeChainError(err);
    if (await this.repository.markStalled(transfer.id, reason)) {
      this.logger.warn({ vaultTransferId: transfer.id, chain: transfer.chain, reason }, 'vault transfer stalled; the worker keeps trying');
    }
  }

  /**
   * The transfer and its line to `to` (`VaultTransfersRepository.move`) and, in the same
   * transaction, the event a merchant hears of it; false when another run moved it first.
   */
  private async move(
    manager: EntityManager,
    transfer: Pick<VaultTransferRecord, 'id' | 'merchantId'>,
    to: VaultTransferStatus,
    cause: string,
    fields: { failureReason?: string; confirmations?: number } = {},
  ): Promise<boolean> {
    if (!(await this.repository.move(manager, transfer.id, to, cause, fields))) return false;
    const type = TRANSFER_EVENTS[to];
    if (type) {
      const object = mapVaultTransfer((await this.repository.find(transfer.id, manager))!, this.config.vault.chains);
      await this.events.record(manager, { merchantId: transfer.merchantId, type, objectId: transfer.id, object });
    }
    return true;
  }

  /** To `failed` (`cause`: `refused` before it left, `reverted` on the chain), and the reservation back to available, once. */
  private async fail(transfer: VaultTransferRecord, cause: 'refused' | 'reverted', reason: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.move(manager, transfer, 'failed', cause, { failureReason: reason }))) return;
      await this.ledger.post(manager, this.posting('vault_transfer_failed', transfer));
    });
  }

  /**
   * The postings of a transfer: reserved (available to reserved), confirmed (the amount leaves
   * the platform's custody on the chain; the fee is the platform's revenue, still at the vault's
   * address), failed (reserved back to available).
   */
  private posting(type: 'vault_transfer_reserved' | 'vault_transfer_confirmed' | 'vault_transfer_failed', transfer: VaultTransferRecord): Posting {
    const amount = minorFromColumn(transfer.amount);
    const fee = minorFromColumn(transfer.networkFee);
    const vault = { merchantId: transfer.merchantId, poboUserId: transfer.poboUserId, chain: transfer.chain };
    const available = { vault, kind: 'vault_available' as const };
    const reserved = { vault, kind: 'vault_reserved' as const };
    const lines =
      type === 'vault_transfer_reserved'
        ? [
            { account: available, amount: -(amount + fee) },
            { account: reserved, amount: amount + fee },
          ]
        : type === 'vault_transfer_failed'
          ? [
              { account: reserved, amount: -(amount + fee) },
              { account: available, amount: amount + fee },
            ]
          : [
              { account: reserved, amount: -(amount + fee) },
              { account: { platform: `custody_${transfer.chain}` as const }, amount },
              { account: { platform: 'vault_network_fees' as const }, amount: fee },
            ];
    return { type, sourceId: transfer.id, currency: VAULT_ASSET, lines: lines.filter((line) => line.amount !== 0) };
  }
}

/** The vault that sends the transfer: its address and the wallet index of its key. */
function senderOf(transfer: VaultTransferRecord): Sender {
  return { address: transfer.fromAddress, key: transfer.walletIndex };
}

/** The transfer's signed transaction, once it has one. */
function signedOf(transfer: VaultTransferRecord): SignedTransfer | undefined {
  if (transfer.rawTx === null || transfer.txHash === null) return undefined;
  return {
    raw: transfer.rawTx,
    txHash: transfer.txHash,
    nonce: transfer.nonce === null ? null : BigInt(transfer.nonce),
    validUntil: transfer.validUntil === null ? null : BigInt(transfer.validUntil),
  };
}
