import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Jobs } from '../../queues/jobs';
import { BusinessStatesService } from '../business-states/business-states.service';
import { PoboBusinessEntity } from '../pobo-businesses/pobo-business.entity';
import { BANK_RAIL, BankRail } from './bank-rail';
import { NairaAccountEntity } from './naira-account.entity';

/** Naira receiving accounts: pending → active, or failed and retried later by the sweep. */
@Injectable()
export class NairaService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly bankRail: BankRail,
    private readonly states: BusinessStatesService,
    private readonly jobs: Jobs,
  ) {}

  /**
   * Moves the (locked) business to `pending` and opens a new provisioning round, inside the
   * caller's transaction. Returns the round, which names the job to enqueue after commit.
   */
  async requestProvisioning(manager: EntityManager, business: PoboBusinessEntity, cause: string): Promise<number> {
    await this.states.apply(manager, business, { naira_collection: 'pending' }, cause);
    const [row] = await manager.query<{ attempts: number }[]>(
      `INSERT INTO naira_accounts (business_id, attempts) VALUES ($1, 1)
       ON CONFLICT (business_id) DO UPDATE SET attempts = naira_accounts.attempts + 1, updated_at = now()
       RETURNING attempts`,
      [business.id],
    );
    return row.attempts;
  }

  enqueue(businessId: string, round: number): Promise<void> {
    return this.jobs.enqueueQuietly(() => this.jobs.provisionNaira(businessId, round), `Naira provisioning of ${businessId}`);
  }

  /** One provisioning attempt (a job). Idempotent: the rail dedupes on the business id. */
  async provision(businessId: string): Promise<void> {
    const business = await this.dataSource.getRepository(PoboBusinessEntity).findOneBy({ id: businessId });
    if (business?.nairaCollectionStatus !== 'pending') return;
    const account = await this.bankRail.openVirtualAccount(
      { reference: business.id, accountName: business.businessName },
      { timeoutMs: this.config.providerTimeoutMs, retries: 1 },
    );
    await this.dataSource.transaction(async (manager) => {
      const locked = await this.states.lockBusiness(manager, businessId);
      if (locked?.nairaCollectionStatus !== 'pending') return;
      await manager.update(NairaAccountEntity, { businessId }, {
        providerReference: account.id,
        accountNumber: account.accountNumber,
        bankName: account.bankName,
        lastError: null,
      });
      await this.states.apply(manager, locked, { naira_collection: 'active' }, 'bank_rail_account_opened');
    });
  }

  /** The last attempt of a round failed: record why and mark the business failed until the sweep retries. */
  async markFailed(businessId: string, reason: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const locked = await this.states.lockBusiness(manager, businessId);
      if (locked?.nairaCollectionStatus !== 'pending') return;
      await manager.update(NairaAccountEntity, { businessId }, { lastError: reason.slice(0, 500) });
      await this.states.apply(manager, locked, { naira_collection: 'failed' }, 'bank_rail_failed');
    });
  }

  /** Failed provisioning is retried after NAIRA_RETRY_AFTER: a new round. Called by the sweep. */
  async retryFailed(olderThanMs: number): Promise<void> {
    const due = await this.dataSource.query<{ business_id: string }[]>(
      `SELECT a.business_id FROM naira_accounts a JOIN pobo_businesses b ON b.id = a.business_id
       WHERE b.naira_collection_status = 'failed' AND a.updated_at < now() - make_interval(secs => $1 / 1000.0) LIMIT 100`,
      [olderThanMs],
    );
    for (const { business_id: businessId } of due) {
      const round = await this.dataSource.transaction(async (manager) => {
        const locked = await this.states.lockBusiness(manager, businessId);
        return locked?.nairaCollectionStatus === 'failed' ? this.requestProvisioning(manager, locked, 'naira_retry') : null;
      });
      if (round !== null) await this.enqueue(businessId, round);
    }
  }

  /** Re-enqueues pending rounds whose job may have been lost (e.g. Redis was down at commit). */
  async enqueuePending(): Promise<void> {
    const pending = await this.dataSource.query<{ business_id: string; attempts: number }[]>(
      `SELECT a.business_id, a.attempts FROM naira_accounts a JOIN pobo_businesses b ON b.id = a.business_id
       WHERE b.naira_collection_status = 'pending' LIMIT 500`,
    );
    for (const row of pending) await this.jobs.provisionNaira(row.business_id, row.attempts);
  }
}
