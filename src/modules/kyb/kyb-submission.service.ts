import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { BusinessStatesService } from '../business-states/business-states.service';
import { DOCUMENT_STORAGE, DocumentStorage } from './document-storage';
import { KybApplicationEntity } from './kyb-application.entity';
import { KybDocumentEntity } from './kyb-document.entity';
import { VERIFICATION_PROVIDER, VerificationProvider } from './verification-provider';

/** Worker side: hands a queued application to the provider, exactly once from the provider's view. */
@Injectable()
export class KybSubmissionService {
  private readonly logger = new Logger(KybSubmissionService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DOCUMENT_STORAGE) private readonly storage: DocumentStorage,
    @Inject(VERIFICATION_PROVIDER) private readonly provider: VerificationProvider,
    private readonly states: BusinessStatesService,
  ) {}

  /**
   * Safe to run any number of times, concurrently or after a crash: the application id is the
   * provider's idempotency key, so a repeated call returns the same provider application.
   * Retryable failures are thrown so the job is retried with backoff.
   */
  async submit(applicationId: string): Promise<void> {
    const applications = this.dataSource.getRepository(KybApplicationEntity);
    const application = await applications.findOneBy({ id: applicationId });
    if (application?.status !== 'queued') return;
    await applications.increment({ id: applicationId }, 'submitAttempts', 1);

    const documents = await this.dataSource.getRepository(KybDocumentEntity).find({ where: { applicationId, deletedAt: IsNull() }, order: { path: 'ASC' } });
    const payload = application.payload;
    try {
      const remote = await this.provider.submit(
        {
          reference: application.id,
          company: payload.company,
          associated_persons: payload.associated_persons,
          documents: await Promise.all(
            documents.map(async (d) => ({ id: d.id, path: d.path, file_type: d.fileType, sha256: d.sha256, size: d.sizeBytes, content: await this.storage.get(d.id) })),
          ),
        },
        { timeoutMs: this.config.providerTimeoutMs, retries: 2 },
      );
      await applications.update({ id: applicationId, status: 'queued' }, { status: 'submitted', providerReference: remote.id, submittedAt: new Date(), lastError: null });
      this.logger.log(`application ${applicationId} submitted to the provider as ${remote.id}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await applications.update({ id: applicationId }, { lastError: message.slice(0, 500) });
      if (err instanceof ProviderError && !err.retryable) return this.rejectedByProvider(application, message);
      throw err;
    }
  }

  /** The provider refused the application itself (4xx): the merchant must fix and resubmit. */
  private async rejectedByProvider(application: KybApplicationEntity, reason: string): Promise<void> {
    const requirements = [{ code: 'application_rejected', field: 'company', message: `The verification provider refused the application: ${reason}` }];
    await this.dataSource.transaction(async (manager) => {
      const business = await this.states.lockBusiness(manager, application.businessId);
      await manager.update(KybApplicationEntity, { id: application.id }, { status: 'reviewed', outcome: 'rejected', requirements });
      if (business?.kybStatus === 'processing') {
        await this.states.apply(manager, business, { kyb: 'action_required' }, 'provider_rejected', { kybPendingRequirements: requirements });
      }
    });
  }
}
