import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { NAIRA_QUEUE } from '../../queues/queue-names';
import { workerOptions } from '../../queues/worker-options';
import { NairaService } from './naira.service';

@Processor(NAIRA_QUEUE, workerOptions(2))
export class NairaProcessor extends WorkerHost {
  constructor(private readonly naira: NairaService) {
    super();
  }

  async process(job: Job<{ businessId: string }>): Promise<void> {
    if (job.name !== 'provision') throw new Error(`no handler for job ${job.name}`);
    await this.naira.provision(job.data.businessId);
  }

  @OnWorkerEvent('failed')
  async onFailed(job: Job<{ businessId: string }> | undefined, error: Error): Promise<void> {
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) await this.naira.markFailed(job.data.businessId, error.message);
  }
}
