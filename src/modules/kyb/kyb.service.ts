import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ErrorDetail, ValidationFailedError } from '../../common/errors/app-error';
import { newId } from '../../common/ids/ids';
import { createValidationPipe } from '../../common/validation/validation.pipe';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Outbox } from '../../jobs';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { KYB_STATES, mapPoboBusiness, PoboBusinessDto, PoboBusinessesService, PoboBusinessStates } from '../pobo-businesses';
import type { KybStatus, PoboBusinessRow } from '../pobo-businesses';
import { KybApplicationDto, KybApplicationPatchDto } from './dto/kyb-application.dto';
import { CarriedDocument, checkApplication, SubmittedDocument } from './kyb-application.rules';
import { documentIdsByPath, StoredApplication } from './kyb-application.entity';
import { KybDocumentStore, StoredDocument } from './kyb-document.store';
import { ReceivedDocuments } from './kyb-documents.extractor';
import { KybRefreshService } from './kyb-refresh.service';
import { APPLICATION_SECTIONS, ApplicationSection } from './kyb.constants';
import {
  AgreementNotAcceptedError,
  KybApplicationChangedError,
  KybApplicationInvalidError,
  KybNotCorrectableError,
  KybNotSubmittableError,
} from './kyb.errors';
import { KYB_JOBS } from './kyb.jobs';
import { KybRepository } from './kyb.repository';

type BusinessState = Pick<PoboBusinessRow, 'agreementStatus' | 'kybStatus'>;

/** The KYB states an application may be submitted from: those with a move to `processing`. */
const SUBMITTABLE = KYB_STATES.sourcesOf('processing');
/**
 * A correction replaces sections of an application the provider sent back, so of those states
 * only action_required has one to correct.
 */
const CORRECTABLE: readonly KybStatus[] = SUBMITTABLE.filter((state) => state === 'action_required');

/** The whole application, checked with the same pipe as a request body. */
const applicationPipe = createValidationPipe();

/** Endpoints 4 and 5: read (after a refresh), submit and correct a business's KYB application. */
@Injectable()
export class KybService {
  private readonly logger = new Logger(KybService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: KybRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly states: PoboBusinessStates,
    private readonly documents: KybDocumentStore,
    private readonly refresher: KybRefreshService,
    private readonly outbox: Outbox,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * Refreshes from the provider before answering (the API promises a fresh state), within KYB_REFRESH_TIMEOUT_MS. If
   * the provider is slow or down, answers the last known state with its lastSyncedAt.
   */
  async getOnboarding(merchantId: string, businessId: string): Promise<PoboBusinessDto> {
    let business = await this.businesses.findOwned(merchantId, businessId);
    if (business.kybStatus === 'processing') {
      const refreshed = await this.refresher.refresh(business.id, { timeoutMs: this.config.kybRefreshTimeoutMs, retries: 0 }).catch((err: Error) => {
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

  /** Only that the business is the merchant's (a keyed submission: see the upload hooks). */
  async admitOwned(merchantId: string, businessId: string): Promise<void> {
    await this.businesses.findOwned(merchantId, businessId);
  }

  /** As `admitSubmission`, for a correction (`PATCH`). */
  async admitCorrection(merchantId: string, businessId: string): Promise<void> {
    assertCorrectable(await this.businesses.findOwned(merchantId, businessId));
  }

  /**
   * Stores the application, its documents and the job that forwards it to the provider in one
   * transaction, and moves `kyb.status` to processing: all of it or nothing.
   */
  async submit(
    merchantId: string,
    businessId: string,
    application: KybApplicationDto,
    received: ReceivedDocuments,
    claim?: IdempotencyClaim,
  ): Promise<PoboBusinessDto> {
    const owned = await this.businesses.findOwned(merchantId, businessId);
    assertSubmittable(owned);
    const documents = checkApplication(application, received);
    return this.store(owned.id, application, documents, new Map(), assertSubmittable, claim);
  }

  /**
   * A correction (Harbor's `PATCH …/onboarding`): each section given replaces that section of the
   * last application, the others are kept, documents included, and the result is checked and
   * resubmitted like a new application. Kept documents are named by their stored ids rather
   * than copied: the provider already has them (or gets them from their stored bytes), so they
   * are neither sent again by the merchant nor uploaded again, and retention may already have
   * deleted their bytes.
   */
  async correct(merchantId: string, businessId: string, patch: KybApplicationPatchDto, received: ReceivedDocuments): Promise<PoboBusinessDto> {
    const owned = await this.businesses.findOwned(merchantId, businessId);
    assertCorrectable(owned);
    const given = APPLICATION_SECTIONS.filter((section) => isRecordLike(patch) && patch[section] !== undefined);
    if (given.length === 0) {
      // Named as the validation pipe names a body that is not an object.
      throw new ValidationFailedError([{ field: 'body', message: `must hold at least one of ${APPLICATION_SECTIONS.join(', ')}` }]);
    }
    const kept = APPLICATION_SECTIONS.filter((section) => !given.includes(section));

    const last = await this.repository.latestApplication(owned.id);
    if (!last) throw new KybNotCorrectableError(owned.kybStatus);
    const carried = await this.carriedDocuments(last.payload, kept);

    const merged: Record<ApplicationSection, unknown> = { company: undefined, associated_persons: undefined, company_files: undefined };
    for (const section of kept) merged[section] = last.payload[section];
    for (const section of given) merged[section] = patch[section];
    // Every rule of a full application, the kept sections' included: they were checked when sent,
    // but the rules may have changed since.
    const application = (await applicationPipe.transform(JSON.parse(JSON.stringify(merged)), {
      type: 'body',
      metatype: KybApplicationDto,
    })) as KybApplicationDto;
    const documents = checkApplication(application, received, carried);

    return this.store(owned.id, application, documents, carried, async (business, manager) => {
      assertCorrectable(business);
      const latest = await this.repository.latestApplication(business.id, { manager });
      if (latest?.id !== last.id) throw new KybApplicationChangedError();
    });
  }

  /** The stored documents of the sections a correction keeps, by their path in the application. */
  private async carriedDocuments(payload: StoredApplication, sections: ApplicationSection[]): Promise<Map<string, CarriedDocument>> {
    const ids = documentIdsByPath(payload, sections);
    if (ids.size === 0) return new Map();
    const rows = await this.repository.documents([...new Set(ids.values())]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const carried = new Map<string, CarriedDocument>();
    const missing: ErrorDetail[] = [];
    for (const [path, id] of ids) {
      const row = byId.get(id);
      // Bytes deleted before the provider had them cannot be sent to it any more.
      if (!row || (row.deletedAt && !row.uploadedAt))
        missing.push({ field: path, message: 'this stored document is no longer available; send its section again' });
      else carried.set(path, { id: row.id, sizeBytes: row.sizeBytes });
    }
    if (missing.length > 0) throw new KybApplicationInvalidError(missing);
    return carried;
  }

  /**
   * One transaction: the application, its new documents, the forwarding job and the move to
   * processing, and the answer of an Idempotency-Key when one was sent.
   */
  private async store(
    businessId: string,
    application: KybApplicationDto,
    documents: SubmittedDocument[],
    carried: ReadonlyMap<string, CarriedDocument>,
    recheck: (business: BusinessState & { id: string }, manager: EntityManager) => void | Promise<void>,
    claim?: IdempotencyClaim,
  ): Promise<PoboBusinessDto> {
    const applicationId = newId('kyba');
    const prepared = this.documents.prepare(documents);
    return this.idempotency.commit(claim, async (manager) => {
      // Re-checked under the row lock: of two concurrent submissions, one wins.
      const business = (await this.states.lock(manager, businessId))!;
      await recheck(business, manager);
      await this.repository.insertApplication(manager, {
        id: applicationId,
        businessId: business.id,
        status: 'queued',
        payload: withoutFiles(application, prepared, carried),
        providerReference: null,
        submittedAt: null,
        outcome: null,
        requirements: [],
        lastError: null,
      });
      await this.documents.save(manager, applicationId, prepared);
      await this.outbox.enqueue(manager, KYB_JOBS.forward, { applicationId });
      const updated = await this.states.apply(manager, business, { kyb: 'processing' }, 'kyb_submitted', { kybPendingRequirements: [] });
      return mapPoboBusiness(updated);
    });
  }
}

function assertSubmittable(business: BusinessState): void {
  if (business.agreementStatus !== 'accepted') throw new AgreementNotAcceptedError();
  if (!SUBMITTABLE.includes(business.kybStatus)) throw new KybNotSubmittableError(business.kybStatus);
}

function assertCorrectable(business: BusinessState): void {
  if (business.agreementStatus !== 'accepted') throw new AgreementNotAcceptedError();
  if (!CORRECTABLE.includes(business.kybStatus)) throw new KybNotCorrectableError(business.kybStatus);
}

/** A JSON `null` body passes the validation pipe unchanged (an array does not). */
function isRecordLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The application as kept in PostgreSQL: every file replaced by its document's id, a new one
 * (`documents`) or one kept from the corrected application (`carried`), by path.
 */
function withoutFiles(application: KybApplicationDto, documents: StoredDocument[], carried: ReadonlyMap<string, CarriedDocument>): StoredApplication {
  const idByPath = new Map<string, string>([...documents.map((d) => [d.path, d.id] as const), ...[...carried].map(([path, d]) => [path, d.id] as const)]);
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
