import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues } from '../../jobs';
import { PoboBusinessStates } from '../pobo-businesses';
import { documentIdsByPath, KybApplicationEntity } from './kyb-application.entity';
import { KybDocumentEntity } from './kyb-document.entity';
import { KybDocumentStore } from './kyb-document.store';
import { KYB_JOBS } from './kyb.jobs';
import { KybRepository } from './kyb.repository';
import { VERIFICATION_PROVIDER, VerificationProvider } from './verification-provider';

const RESUME_BATCH = 500;

/**
 * Worker side: hands a queued application to the provider, exactly once from the provider's
 * view. Each document is uploaded (streamed from PostgreSQL) and recorded as uploaded, then the
 * application is created under our application id as the idempotency key; a retried job skips
 * what is recorded and the provider dedupes the rest.
 */
@Injectable()
export class KybForwardingService {
  private readonly logger = new Logger(KybForwardingService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(VERIFICATION_PROVIDER) private readonly provider: VerificationProvider,
    private readonly documents: KybDocumentStore,
    private readonly repository: KybRepository,
    private readonly states: PoboBusinessStates,
    private readonly queues: JobQueues,
  ) {}

  /** Retryable failures are thrown, so the job is retried with backoff. */
  @JobHandler(KYB_JOBS.forward)
  async forward({ applicationId }: { applicationId: string }): Promise<void> {
    const application = await this.repository.findApplication(applicationId);
    if (application?.status !== 'queued') return;
    await this.repository.countForwardAttempt(applicationId);

    // Those its payload names: a correction's kept documents were stored with an earlier
    // application, and the provider has them already (`uploadedAt`), their bytes perhaps deleted.
    const ids = [...new Set(documentIdsByPath(application.payload).values())];
    const documents = await this.repository.documents(ids);
    const options = { timeoutMs: this.config.providerTimeoutMs, retries: 2 };
    try {
      for (const document of documents.filter((d) => !d.uploadedAt)) {
        await this.provider.uploadDocument(providerDocument(document), () => this.documents.read(document), options);
        await this.repository.markUploaded(document.id);
      }
      const remote = await this.provider.createApplication(
        {
          reference: application.id,
          company: application.payload.company,
          associated_persons: application.payload.associated_persons,
          documents: documents.map(providerDocument),
        },
        options,
      );
      await this.repository.updateApplication(applicationId, 'queued', {
        status: 'submitted',
        providerReference: remote.id,
        submittedAt: new Date(),
        lastError: null,
      });
      this.logger.log(`application ${applicationId} is with the provider as ${remote.id}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.repository.updateApplication(applicationId, undefined, { lastError: message.slice(0, 500) });
      if (err instanceof ProviderError && !err.retryable) return this.rejectedByProvider(application, message);
      throw err;
    }
  }

  @JobHandler(KYB_JOBS.resumeForwarding)
  async resumeForwarding(): Promise<void> {
    // Younger applications are still on their way through the outbox.
    for (const applicationId of await this.repository.queuedApplications(this.config.periodicJobIntervalMs, RESUME_BATCH)) {
      await this.queues.ensure(KYB_JOBS.forward, { applicationId });
    }
  }

  /** The provider refused the application itself (4xx): the merchant must fix and resubmit. */
  private async rejectedByProvider(application: KybApplicationEntity, reason: string): Promise<void> {
    const requirements = [{ code: 'application_rejected', field: 'company', message: `The verification provider refused the application: ${reason}` }];
    await this.dataSource.transaction(async (manager) => {
      const business = await this.states.lock(manager, application.businessId);
      await this.repository.updateApplication(application.id, 'queued', { status: 'reviewed', outcome: 'rejected', requirements }, manager);
      if (business?.kybStatus === 'processing') {
        await this.states.apply(manager, business, { kyb: 'action_required' }, 'provider_rejected', { kybPendingRequirements: requirements });
      }
    });
  }
}

function providerDocument(document: KybDocumentEntity) {
  return { id: document.id, path: document.path, file_type: document.fileType, sha256: document.sha256, size: document.sizeBytes };
}
