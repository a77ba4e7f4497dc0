import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { REDIS } from '../../redis/redis.module';
import { BusinessStatesService } from '../business-states/business-states.service';
import { NairaService } from '../naira/naira.service';
import { KybApplicationEntity } from './kyb-application.entity';
import { CallOptions, VERIFICATION_PROVIDER, VerificationProvider } from './verification-provider';

const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Brings a business's KYB state in line with the provider. Used by GET …/onboarding (short
 * budget, no retries) and by the worker's periodic refresh. A Redis lock per business makes
 * concurrent refreshes, from any number of processes, cause at most one provider call at a time.
 */
@Injectable()
export class KybSyncService {
  private readonly logger = new Logger(KybSyncService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(VERIFICATION_PROVIDER) private readonly provider: VerificationProvider,
    private readonly states: BusinessStatesService,
    private readonly naira: NairaService,
  ) {}

  /** Returns false when there was nothing to ask, or another refresh of this business is running. */
  async refresh(businessId: string, options: CallOptions): Promise<boolean> {
    const application = await this.dataSource.getRepository(KybApplicationEntity).findOne({
      where: { businessId, status: 'submitted' },
      order: { createdAt: 'DESC' },
    });
    if (!application?.providerReference) return false;

    const lockKey = `${this.config.queuePrefix}:kyb-refresh-lock:${businessId}`;
    const token = randomBytes(8).toString('hex');
    const acquired = await this.redis.set(lockKey, token, 'PX', options.timeoutMs * (options.retries + 1) + 2_000, 'NX');
    if (acquired !== 'OK') return false;
    try {
      const remote = await this.provider.fetch(application.providerReference, options);
      const provisionRound = await this.dataSource.transaction(async (manager) => {
        const business = await this.states.lockBusiness(manager, businessId);
        const current = await manager.findOneBy(KybApplicationEntity, { id: application.id });
        if (!business || current?.status !== 'submitted' || business.kybStatus !== 'processing') return null;
        const now = new Date();
        if (remote.status === 'processing') {
          await this.states.apply(manager, business, {}, 'provider_processing', { kybLastSyncedAt: now });
          return null;
        }
        const requirements = remote.status === 'action_required' ? remote.requirements : [];
        await manager.update(KybApplicationEntity, { id: application.id }, { status: 'reviewed', outcome: remote.status, requirements });
        await this.states.apply(manager, business, { kyb: remote.status }, `provider_${remote.status}`, {
          kybLastSyncedAt: now,
          kybPendingRequirements: requirements,
        });
        return remote.status === 'verified' && business.allowNairaCollection
          ? this.naira.requestProvisioning(manager, business, 'kyb_verified')
          : null;
      });
      if (provisionRound !== null) await this.naira.enqueue(businessId, provisionRound);
      return true;
    } finally {
      await this.redis.eval(RELEASE_LOCK, 1, lockKey, token).catch((err: Error) => this.logger.warn(`lock release failed: ${err.message}`));
    }
  }
}
