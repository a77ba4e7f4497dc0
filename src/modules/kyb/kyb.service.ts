import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Jobs } from '../../queues/jobs';
import { BusinessStatesService } from '../business-states/business-states.service';
import { PoboBusinessDto } from '../pobo-businesses/dto/pobo-business.response';
import { mapPoboBusiness } from '../pobo-businesses/pobo-business.mapper';
import { PoboBusinessEntity } from '../pobo-businesses/pobo-business.entity';
import { KYB_SUBMITTABLE } from '../pobo-businesses/pobo-business.states';
import { PoboBusinessNotFoundError } from '../pobo-businesses/pobo-businesses.errors';
import { DOCUMENT_STORAGE, DocumentStorage } from './document-storage';
import { KybApplicationDto } from './dto/kyb-application.dto';
import { checkApplication, SubmittedDocument } from './kyb-application.rules';
import { ReceivedDocuments } from './kyb-documents.extractor';
import { KybApplicationEntity, StoredApplication } from './kyb-application.entity';
import { KybDocumentEntity } from './kyb-document.entity';
import { AgreementNotAcceptedError, KybNotSubmittableError } from './kyb.errors';
import { KybSyncService } from './kyb-sync.service';

type NewDocument = Omit<KybDocumentEntity, 'createdAt' | 'application'>;

/** Endpoints 4 and 5: read (after a refresh) and submit a business's KYB application. */
@Injectable()
export class KybService {
  private readonly logger = new Logger(KybService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DOCUMENT_STORAGE) private readonly storage: DocumentStorage,
    private readonly states: BusinessStatesService,
    private readonly sync: KybSyncService,
    private readonly jobs: Jobs,
  ) {}

  /**
   * Refreshes from the provider before answering (seed rule), within KYB_REFRESH_TIMEOUT_MS. If
   * the provider is slow or down, answers the last known state with its lastSyncedAt.
   */
  async getOnboarding(merchantId: string, businessId: string): Promise<PoboBusinessDto> {
    let business = await this.findOwned(merchantId, businessId);
    if (business.kybStatus === 'processing') {
      const refreshed = await this.sync
        .refresh(business.id, { timeoutMs: this.config.kybRefreshTimeoutMs, retries: 0 })
        .catch((err: Error) => {
          this.logger.warn(`KYB refresh of ${business.id} failed, answering last known state: ${err.message}`);
          return false;
        });
      if (refreshed) business = await this.findOwned(merchantId, businessId);
    }
    return mapPoboBusiness(business);
  }

  async submit(merchantId: string, businessId: string, application: KybApplicationDto, received: ReceivedDocuments): Promise<PoboBusinessDto> {
    const business = await this.findOwned(merchantId, businessId);
    this.assertSubmittable(business);
    const documents = checkApplication(application, received);

    const applicationId = newId('kyba');
    const stored = await this.storeDocuments(applicationId, documents);
    try {
      const updated = await this.dataSource.transaction(async (manager) => {
        // Re-checked under the row lock: of two concurrent submissions, one wins.
        const locked = (await this.states.lockBusiness(manager, business.id))!;
        this.assertSubmittable(locked);
        await manager.insert(KybApplicationEntity, {
          id: applicationId,
          businessId: business.id,
          status: 'queued',
          payload: withoutFiles(application, documents, stored),
          providerReference: null,
          submittedAt: null,
          outcome: null,
          requirements: [],
          lastError: null,
        });
        await manager.insert(KybDocumentEntity, stored);
        return this.states.apply(manager, locked, { kyb: 'processing' }, 'kyb_submitted', { kybPendingRequirements: [] });
      });
      await this.jobs.enqueueQuietly(() => this.jobs.submit(applicationId), `submission of ${applicationId}`);
      return mapPoboBusiness(updated);
    } catch (err) {
      await Promise.all(stored.map((d) => this.storage.delete(d.id).catch(() => undefined)));
      throw err;
    }
  }

  private assertSubmittable(business: PoboBusinessEntity): void {
    if (business.agreementStatus !== 'accepted') throw new AgreementNotAcceptedError();
    if (!KYB_SUBMITTABLE.includes(business.kybStatus)) throw new KybNotSubmittableError(business.kybStatus);
  }

  private async storeDocuments(applicationId: string, documents: SubmittedDocument[]): Promise<NewDocument[]> {
    const stored: NewDocument[] = [];
    try {
      for (const document of documents) {
        const id = newId('doc');
        const sha256 = await this.storage.put(id, document.content);
        stored.push({ id, applicationId, path: document.path, fileType: document.fileType, sha256, sizeBytes: document.sizeBytes, deletedAt: null });
      }
      return stored;
    } catch (err) {
      await Promise.all(stored.map((d) => this.storage.delete(d.id).catch(() => undefined)));
      throw err;
    }
  }

  private async findOwned(merchantId: string, businessId: string): Promise<PoboBusinessEntity> {
    const business = isId('pobo', businessId)
      ? await this.dataSource.getRepository(PoboBusinessEntity).findOneBy({ id: businessId, merchantId })
      : null;
    if (!business) throw new PoboBusinessNotFoundError();
    return business;
  }
}

function withoutFiles(
  application: KybApplicationDto,
  documents: SubmittedDocument[],
  stored: Pick<KybDocumentEntity, 'id'>[],
): StoredApplication {
  const idByPath = new Map<string, string>(documents.map((d, i) => [d.path, stored[i].id]));
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
