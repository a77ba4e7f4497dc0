import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Jobs } from '../../queues/jobs';
import { KYB_QUEUE } from '../../queues/queue-names';
import { NairaService } from '../naira/naira.service';
import { DOCUMENT_STORAGE, DocumentStorage } from './document-storage';

/**
 * The periodic sweep (one BullMQ job scheduler, so one run per interval across all workers).
 * PostgreSQL is the source of truth; the sweep makes sure every piece of pending work has a job.
 */
@Injectable()
export class KybSweepService {
  private readonly logger = new Logger(KybSweepService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DOCUMENT_STORAGE) private readonly storage: DocumentStorage,
    @InjectQueue(KYB_QUEUE) private readonly kybQueue: Queue,
    private readonly jobs: Jobs,
    private readonly naira: NairaService,
  ) {}

  async sweep(): Promise<void> {
    await this.resubmitQueued();
    await this.refreshProcessing();
    await this.naira.enqueuePending();
    await this.naira.retryFailed(this.config.kybSweepIntervalMs * 12);
    await this.purgeDocuments();
  }

  /** Queued applications get their submit job; one whose job gave up is retried (the provider may be back). */
  private async resubmitQueued(): Promise<void> {
    const queued = await this.dataSource.query<{ id: string }[]>(`SELECT id FROM kyb_applications WHERE status = 'queued' ORDER BY created_at LIMIT 500`);
    for (const { id } of queued) {
      const job = await this.kybQueue.getJob(`submit-${id}`);
      if (!job) await this.jobs.submit(id);
      else if (await job.isFailed()) await job.retry('failed');
    }
  }

  private async refreshProcessing(): Promise<void> {
    const processing = await this.dataSource.query<{ business_id: string }[]>(
      `SELECT DISTINCT a.business_id FROM kyb_applications a JOIN pobo_businesses b ON b.id = a.business_id
       WHERE a.status = 'submitted' AND b.kyb_status = 'processing' LIMIT 1000`,
    );
    for (const { business_id: businessId } of processing) await this.jobs.refresh(businessId, this.config.kybSweepIntervalMs);
  }

  /** Documents are deleted once the provider has them and the retention period has passed. */
  private async purgeDocuments(): Promise<void> {
    const due = await this.dataSource.query<{ id: string }[]>(
      `SELECT d.id FROM kyb_documents d JOIN kyb_applications a ON a.id = d.application_id
       WHERE d.deleted_at IS NULL AND a.submitted_at IS NOT NULL
         AND a.submitted_at < now() - make_interval(hours => $1) LIMIT 200`,
      [this.config.documentRetentionHours],
    );
    for (const { id } of due) {
      await this.storage.delete(id);
      await this.dataSource.query('UPDATE kyb_documents SET deleted_at = now() WHERE id = $1', [id]);
    }
    if (due.length > 0) this.logger.log(`deleted ${due.length} documents past retention`);
  }
}
