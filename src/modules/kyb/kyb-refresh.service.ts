import type { CallOptions } from '../../common/providers/provider-http-client';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues } from '../../jobs';
import { REDIS } from '../../redis/redis.module';
import { NairaService } from '../naira';
import { PoboBusinessStates } from '../pobo-businesses';
import { KYB_JOBS } from './kyb.jobs';
import { KybRepository } from './kyb.repository';
import { VERIFICATION_PROVIDER, VerificationProvider } from './verification-provider';

const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const REFRESH_BATCH = 1_000;

/**
 * Brings a business's KYB state in line with the provider. Used by GET …/onboarding (short
 * budget, no retries) and by the worker's periodic refresh. A Redis lock per business makes
 * concurrent refreshes, from any number of processes, cause at most one provider call at a time.
 */
@Injectable()
export class KybRefreshService {
  private readonly logger = new Logger(KybRefreshService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(VERIFICATION_PROVIDER) private readonly provider: VerificationProvider,
    private readonly repository: KybRepository,
    private readonly states: PoboBusinessStates,
    private readonly naira: NairaService,
    private readonly queues: JobQueues,
  ) {}

  @JobHandler(KYB_JOBS.refreshProcessing)
  async refreshProcessing(): Promise<void> {
    for (const businessId of await this.repository.businessesUnderReview(REFRESH_BATCH)) await this.queues.ensure(KYB_JOBS.refresh, { businessId });
  }

  @JobHandler(KYB_JOBS.refresh)
  async refreshJob({ businessId }: { businessId: string }): Promise<void> {
    await this.refresh(businessId, { timeoutMs: this.config.providerTimeoutMs, retries: 2 });
  }

  /** Returns false when there was nothing to ask, or another refresh of this business is running. */
  async refresh(businessId: string, options: CallOptions): Promise<boolean> {
    const application = await this.repository.latestApplication(businessId, { status: 'submitted' });
    if (!application?.providerReference) return false;

    const lockKey = `${this.config.queuePrefix}:kyb-refresh-lock:${businessId}`;
    const token = randomBytes(8).toString('hex');
    const acquired = await this.redis.set(lockKey, token, 'PX', options.timeoutMs * (options.retries + 1) + 2_000, 'NX');
    if (acquired !== 'OK') return false;
    try {
      const remote = await this.provider.fetchApplication(application.providerReference, options);
      await this.dataSource.transaction(async (manager) => {
        const business = await this.states.lock(manager, businessId);
        const current = await this.repository.findApplication(application.id, manager);
        if (!business || current?.status !== 'submitted' || business.kybStatus !== 'processing') return;
        const now = new Date();
        if (remote.status === 'processing') {
          await this.states.apply(manager, business, {}, 'provider_processing', { kybLastSyncedAt: now });
          return;
        }
        const requirements = remote.status === 'action_required' ? remote.requirements : [];
        await this.repository.updateApplication(application.id, 'submitted', { status: 'reviewed', outcome: remote.status, requirements }, manager);
        await this.states.apply(manager, business, { kyb: remote.status }, `provider_${remote.status}`, {
          kybLastSyncedAt: now,
          kybPendingRequirements: requirements,
        });
        if (remote.status === 'verified' && business.allowNairaCollection) await this.naira.requestProvisioning(manager, business, 'kyb_verified');
      });
      return true;
    } finally {
      await this.redis.eval(RELEASE_LOCK, 1, lockKey, token).catch((err: Error) => this.logger.warn(`lock release failed: ${err.message}`));
    }
  }
}
