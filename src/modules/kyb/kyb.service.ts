import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Outbox } from '../../jobs';
import { KYB_STATES, mapPoboBusiness, PoboBusinessDto, PoboBusinessesService, PoboBusinessStates } from '../pobo-businesses';
import type { PoboBusinessRow } from '../pobo-businesses';
import { KybApplicationDto } from './dto/kyb-application.dto';
import { checkApplication } from './kyb-application.rules';
import { KybApplicationEntity, StoredApplication } from './kyb-application.entity';
import { KybDocumentStore, StoredDocument } from './kyb-document.store';
import { ReceivedDocuments } from './kyb-documents.extractor';
import { KybRefreshService } from './kyb-refresh.service';
import { AgreementNotAcceptedError, KybNotSubmittableError } from './kyb.errors';
import { KYB_JOBS } from './kyb.jobs';

/** The KYB states an application may be submitted from: those with a move to `processing`. */
const SUBMITTABLE = KYB_STATES.sourcesOf('processing');

/** Endpoints 4 and 5: read (after a refresh) and submit a business's KYB application. */
@Injectable()
export class KybService {
  private readonly logger = new Logger(KybService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly businesses: PoboBusinessesService,
    private readonly states: PoboBusinessStates,
    private readonly documents: KybDocumentStore,
    private readonly refresher: KybRefreshService,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Refreshes from the provider before answering (seed rule), within KYB_REFRESH_TIMEOUT_MS. If
   * the provider is slow or down, answers the last known state with its lastSyncedAt.
   */
  async getOnboarding(merchantId: string, businessId: string): Promise<PoboBusinessDto> {
    let business = await this.businesses.findOwned(merchantId, businessId);
    if (business.kybStatus === 'processing') {
      const refreshed = await this.refresher
        .refresh(business.id, { timeoutMs: this.config.kybRefreshTimeoutMs, retries: 0 })
        .catch((err: Error) => {
          this.logger.warn(`KYB refresh of ${businessId} failed, answering last known state: ${err.message}`);
          return false;
        });
      if (refreshed) business = await this.businesses.findOwned(merchantId, businessId);
    }
    return mapPoboBusiness(business);
  }

  /**
   * Checked from the headers alone, before a submission's body is read: the business is the
   * merchant's and may be submitted now. `submit` checks both again under the row lock.
   */
  async admitSubmission(merchantId: string, businessId: string): Promise<void> {
    assertSubmittable(await this.businesses.findOwned(merchantId, businessId));
  }

  /**
   * Stores the application, its documents and the job that forwards it to the provider in one
   * transaction, and moves `kyb.status` to processing: all of it or nothing.
   */
  async submit(merchantId: string, businessId: string, application: KybApplicationDto, received: ReceivedDocuments): Promise<PoboBusinessDto> {
    const owned = await this.businesses.findOwned(merchantId, businessId);
    assertSubmittable(owned);
    const documents = checkApplication(application, received);

    const applicationId = newId('kyba');
    const prepared = this.documents.prepare(documents);
    const updated = await this.dataSource.transaction(async (manager) => {
      // Re-checked under the row lock: of two concurrent submissions, one wins.
      const business = (await this.states.lock(manager, owned.id))!;
      assertSubmittable(business);
      await manager.insert(KybApplicationEntity, {
        id: applicationId,
        businessId: business.id,
        status: 'queued',
        payload: withoutFiles(application, prepared),
        providerReference: null,
        submittedAt: null,
        outcome: null,
        requirements: [],
        lastError: null,
      });
      await this.documents.save(manager, applicationId, prepared);
      await this.outbox.enqueue(manager, KYB_JOBS.forward, { applicationId });
      return this.states.apply(manager, business, { kyb: 'processing' }, 'kyb_submitted', { kybPendingRequirements: [] });
    });
    return mapPoboBusiness(updated);
  }
}

function assertSubmittable(business: Pick<PoboBusinessRow, 'agreementStatus' | 'kybStatus'>): void {
  if (business.agreementStatus !== 'accepted') throw new AgreementNotAcceptedError();
  if (!SUBMITTABLE.includes(business.kybStatus)) throw new KybNotSubmittableError(business.kybStatus);
}

/** The application as kept in PostgreSQL: every file replaced by its stored document's id. */
function withoutFiles(application: KybApplicationDto, documents: StoredDocument[]): StoredApplication {
  const idByPath = new Map<string, string>(documents.map((d) => [d.path, d.id]));
  const id = (path: string) => idByPath.get(path)!;
  return {
    company: application.company,
    associated_persons: application.associated_persons.map((person, i) => ({
      ...person,
      identity_files: person.identity_files.map((file, j) => ({ ...file, file: id(`associated_persons[${i}].identity_files[${j}].file`) })),
    })),
    company_files: application.company_files.map((group, i) => ({
      file_type: group.file_type,
      files: group.files.map((_, j) => id(`company_files[${i}].files[${j}]`)),
    })),
  };
}
