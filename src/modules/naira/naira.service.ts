import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobContext, JobHandler, JobQueues, Outbox } from '../../jobs';
import { PoboBusinessEntity, PoboBusinessesService, PoboBusinessStates } from '../pobo-businesses';
import { BANK_RAIL, BankRail } from '../bank-rail';
import { NAIRA_JOBS } from './naira.jobs';
import { NairaRepository } from './naira.repository';

/** A failed round is retried after this many PERIODIC_JOB_INTERVAL_MS. */
const RETRY_AFTER_INTERVALS = 12;
const BATCH = 500;

/** Naira receiving accounts: pending → active, or failed and retried in a new round later. */
@Injectable()
export class NairaService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly bankRail: BankRail,
    private readonly repository: NairaRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly states: PoboBusinessStates,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
  ) {}

  /**
   * Moves the (locked) business to `pending` and opens a provisioning round whose job is written
   * to the outbox, all in the caller's transaction.
   */
  async requestProvisioning(manager: EntityManager, business: PoboBusinessEntity, cause: string): Promise<void> {
    await this.states.apply(manager, business, { naira_collection: 'pending' }, cause);
    const round = await this.repository.openRound(manager, business.id);
    await this.outbox.enqueue(manager, NAIRA_JOBS.provision, { businessId: business.id, round: String(round) });
  }

  /** One attempt of a round. Idempotent: the rail dedupes on the business id. The last failed attempt marks the round failed. */
  @JobHandler(NAIRA_JOBS.provision)
  async provision({ businessId }: { businessId: string }, { finalAttempt }: JobContext): Promise<void> {
    try {
      await this.openAccount(businessId);
    } catch (err) {
      if (finalAttempt) await this.markFailed(businessId, (err as Error).message);
      throw err;
    }
  }

  @JobHandler(NAIRA_JOBS.resumeProvisioning)
  async resumeProvisioning(): Promise<void> {
    for (const businessId of await this.repository.failedBefore(this.config.periodicJobIntervalMs * RETRY_AFTER_INTERVALS, BATCH)) {
      await this.dataSource.transaction(async (manager) => {
        const locked = await this.states.lock(manager, businessId);
        if (locked?.nairaCollectionStatus === 'failed') await this.requestProvisioning(manager, locked, 'naira_retry');
      });
    }
    for (const { businessId, round } of await this.repository.openRounds(BATCH)) {
      await this.queues.ensure(NAIRA_JOBS.provision, { businessId, round: String(round) });
    }
  }

  private async openAccount(businessId: string): Promise<void> {
    const business = await this.businesses.findById(businessId);
    if (business?.nairaCollectionStatus !== 'pending') return;
    const account = await this.bankRail.openVirtualAccount(
      { reference: business.id, accountName: business.businessName },
      { timeoutMs: this.config.providerTimeoutMs, retries: 1 },
    );
    await this.dataSource.transaction(async (manager) => {
      const locked = await this.states.lock(manager, businessId);
      if (locked?.nairaCollectionStatus !== 'pending') return;
      await this.repository.recordOpened(manager, businessId, {
        providerReference: account.id,
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        bankName: account.bankName,
        bankCode: account.bankCode,
      });
      await this.states.apply(manager, locked, { naira_collection: 'active' }, 'bank_rail_account_opened', {
        nairaAccountNumber: account.accountNumber,
        nairaAccountName: account.accountName,
        nairaBankName: account.bankName,
        nairaBankCode: account.bankCode,
      });
    });
  }

  private async markFailed(businessId: string, reason: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const locked = await this.states.lock(manager, businessId);
      if (locked?.nairaCollectionStatus !== 'pending') return;
      await this.repository.recordFailed(manager, businessId, reason);
      await this.states.apply(manager, locked, { naira_collection: 'failed' }, 'bank_rail_failed');
    });
  }
}
