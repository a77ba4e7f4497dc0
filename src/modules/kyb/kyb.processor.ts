import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { Job, Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { KYB_QUEUE } from '../../queues/queue-names';
import { workerOptions } from '../../queues/worker-options';
import { KybSubmissionService } from './kyb-submission.service';
import { KybSweepService } from './kyb-sweep.service';
import { KybSyncService } from './kyb-sync.service';

/** The KYB queue: submissions to the provider, refreshes of processing businesses, the sweep. */
@Processor(KYB_QUEUE, workerOptions(4))
export class KybProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(KYB_QUEUE) private readonly queue: Queue,
    private readonly submission: KybSubmissionService,
    private readonly sync: KybSyncService,
    private readonly sweeper: KybSweepService,
  ) {
    super();
  }

  /** Idempotent: every worker upserts the same scheduler, BullMQ runs it once per interval. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('kyb-sweep', { every: this.config.kybSweepIntervalMs }, { name: 'sweep', opts: { attempts: 1 } });
  }

  async process(job: Job<{ applicationId?: string; businessId?: string }>): Promise<void> {
    switch (job.name) {
      case 'submit':
        return this.submission.submit(job.data.applicationId!);
      case 'refresh':
        await this.sync.refresh(job.data.businessId!, { timeoutMs: this.config.providerTimeoutMs, retries: 2 });
        return;
      case 'sweep':
        return this.sweeper.sweep();
      default:
        throw new Error(`no handler for job ${job.name}`);
    }
  }
}
