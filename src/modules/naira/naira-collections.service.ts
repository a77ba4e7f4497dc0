import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { listPage, Page } from '../../common/paging';
import { isId, newId } from '../../common/ids/ids';
import { minorFromColumn, toMajorUnits, toMinorUnits } from '../../common/money/money';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues, Outbox } from '../../jobs';
import { BANK_RAIL, BankRail, callRailForRequest, testTransferKey, RailTransfer, TEST_SENDER } from '../bank-rail';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { LedgerService, transferReturn } from '../ledger';
import { PoboBusinessesService, PoboBusinessStates } from '../pobo-businesses';
import { CollectionReturnReason } from './collection.entity';
import { CollectionRecord, CollectionsRepository } from './collections.repository';
import { CollectionDto, CollectionListQuery, NairaTransferSentDto, SendNairaTransferDto } from './dto/collection.dto';
import { CollectionNotFoundError, NairaAccountNotActiveError, NoOpenNairaAccountError } from './naira.errors';
import { NAIRA_JOBS } from './naira.jobs';

const CURRENCY = 'NGN';
const BATCH = 500;

export function mapCollection(row: CollectionRecord): CollectionDto {
  return {
    collectionId: row.id,
    poboUserId: row.poboUserId,
    amount: toMajorUnits(minorFromColumn(row.amount), row.currency),
    currency: row.currency,
    senderName: row.senderName,
    senderBankName: row.senderBankName,
    senderAccountNumber: row.senderAccountNumber,
    narration: row.narration,
    status: row.status,
    returnReason: row.returnReason,
    receivedAt: row.receivedAt.toISOString(),
  };
}

/**
 * Transfers into businesses' own Naira accounts: each is a collection, credited to the merchant's
 * NGN balance in the transaction that records it (one per rail transfer, however often the rail
 * tells us), or, once the account was closed, recorded as returned and sent back to its sender.
 */
@Injectable()
export class NairaCollectionsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly rail: BankRail,
    private readonly repository: CollectionsRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly states: PoboBusinessStates,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
  ) {}

  /**
   * A transfer the rail received, in the caller's transaction (the one that records the rail's
   * event). False when the account is no business's: it may be a payment intent's.
   */
  async onTransferReceived(manager: EntityManager, transfer: RailTransfer): Promise<boolean> {
    const account = await this.repository.accountForShare(manager, transfer.accountNumber);
    if (!account) return false;
    const business = await this.businesses.findById(account.businessId, manager);
    if (!business) return false;
    const reason: CollectionReturnReason | null = account.closed
      ? 'account_closed'
      : business.nairaCollectionStatus === 'active'
        ? null
        : 'collection_not_active';
    const collectionId = newId('col');
    const recorded = await this.repository.insert(manager, {
      id: collectionId,
      merchantId: business.merchantId,
      poboUserId: business.id,
      railTransferId: transfer.id,
      accountNumber: transfer.accountNumber,
      amount: transfer.amount,
      currency: CURRENCY,
      senderName: transfer.senderName,
      senderBankName: transfer.senderBankName,
      senderAccountNumber: transfer.senderAccountNumber,
      narration: transfer.narration,
      status: reason === null ? 'credited' : 'returned',
      returnReason: reason,
      receivedAt: transfer.receivedAt,
    });
    if (!recorded) return true;
    if (reason === null) {
      await this.ledger.post(manager, {
        type: 'collection_received',
        sourceId: collectionId,
        currency: CURRENCY,
        lines: [
          { account: { platform: 'bank_rail' }, amount: -transfer.amount },
          { account: { merchantId: business.merchantId, kind: 'available' }, amount: transfer.amount },
        ],
        balanceTransactions: [{ merchantId: business.merchantId, type: 'collection', amount: transfer.amount, poboUserId: business.id }],
      });
      return true;
    }
    await this.ledger.post(manager, transferReturn.held('collection_received_for_return', collectionId, CURRENCY, transfer.amount));
    await this.outbox.enqueue(manager, NAIRA_JOBS.returnCollection, { collectionId });
    return true;
  }

  /** Sends a returned collection back through the rail, which returns a transfer at most once; recorded (and its money out of the ledger) once. */
  @JobHandler(NAIRA_JOBS.returnCollection)
  async returnCollection({ collectionId }: { collectionId: string }): Promise<void> {
    const pending = await this.repository.pendingReturn(collectionId);
    if (!pending) return;
    const sent = await this.rail.returnTransfer(pending.railTransferId, pending.returnReason, { timeoutMs: this.config.providerTimeoutMs, retries: 1 });
    const amount = minorFromColumn(pending.amount);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.markReturned(manager, collectionId, sent.id))) return;
      await this.ledger.post(manager, transferReturn.sent('collection_returned', collectionId, CURRENCY, amount));
    });
  }

  @JobHandler(NAIRA_JOBS.resumeCollectionReturns)
  async resumeCollectionReturns(): Promise<void> {
    for (const collectionId of await this.repository.returnsPending(BATCH)) await this.queues.ensure(NAIRA_JOBS.returnCollection, { collectionId });
  }

  async get(merchantId: string, id: string): Promise<CollectionDto> {
    const row = isId('col', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new CollectionNotFoundError();
    return mapCollection(row);
  }

  /** One of the merchant's businesses' collections, newest first; another merchant's business is 404. */
  async list(merchantId: string, poboUserId: string, query: CollectionListQuery): Promise<Page<CollectionDto>> {
    await this.businesses.findOwned(merchantId, poboUserId);
    const range = {
      after: query.receivedAfter ? new Date(query.receivedAfter) : undefined,
      before: query.receivedBefore ? new Date(query.receivedBefore) : undefined,
    };
    return listPage(
      query,
      'col',
      (limit, after) => this.repository.page(merchantId, poboUserId, range, limit, after),
      mapCollection,
      (item) => item.collectionId,
    );
  }

  /**
   * Test mode: the sandbox bank sends a transfer into the business's account, as a sender at
   * another bank would; the rail's callback (or the reconciliation sweep) brings it back to us.
   */
  async sendTestTransfer(
    merchantId: string,
    poboUserId: string,
    dto: SendNairaTransferDto,
    claim: IdempotencyClaim | undefined,
  ): Promise<NairaTransferSentDto> {
    const business = await this.businesses.findOwned(merchantId, poboUserId);
    const account = business.nairaCollectionStatus === 'active' ? business.nairaAccountNumber : null;
    if (!account) throw new NairaAccountNotActiveError();
    const amount = toMinorUnits(dto.amount, CURRENCY)!;
    const transfer = await callRailForRequest(() =>
      this.rail.simulateInboundTransfer(
        {
          idempotencyKey: testTransferKey(claim),
          accountNumber: account,
          amount,
          senderName: dto.senderName ?? null,
          senderBankName: dto.senderBankName ?? TEST_SENDER.bankName,
          senderAccountNumber: dto.senderAccountNumber ?? TEST_SENDER.accountNumber,
          narration: dto.narration ?? null,
        },
        { timeoutMs: this.config.providerTimeoutMs, retries: 1 },
      ),
    );
    return this.idempotency.commit(claim, () =>
      Promise.resolve({ transferId: transfer.id, poboUserId, accountNumber: account, amount: toMajorUnits(amount, CURRENCY) }),
    );
  }

  /**
   * An operator closes a business's Naira account: from then on every transfer into it is
   * returned. The business shows no account any more (`allowNairaCollection` false,
   * `nairaCollectionStatus` back to `not_requested`, `nairaAccount` null); its collections stay.
   */
  async close(businessId: string, note: string): Promise<{ accountNumber: string }> {
    return this.dataSource.transaction(async (manager) => {
      const business = await this.states.lock(manager, businessId);
      if (!business) throw new NoOpenNairaAccountError(businessId);
      const accountNumber = business.nairaAccountNumber;
      if (!accountNumber || !(await this.repository.close(manager, businessId, note))) throw new NoOpenNairaAccountError(businessId);
      await this.states.apply(manager, business, { naira_collection: 'not_requested' }, 'naira_account_closed', {
        allowNairaCollection: false,
        nairaAccountNumber: null,
        nairaAccountName: null,
        nairaBankName: null,
        nairaBankCode: null,
      });
      return { accountNumber };
    });
  }
}
