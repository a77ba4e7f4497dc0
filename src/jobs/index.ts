/** The job registry and the outbox, for every module. */
export { JobsModule } from './jobs.module';
export { Outbox } from './outbox.service';
export { JobQueues } from './job-queues';
export { JobHandler } from './job-handler.decorator';
export { defineJob, definePeriodicJob, defineQueue } from './job.definition';
export type { JobContext, JobDefinition, JobPayload, QueueDefinition } from './job.definition';
export { jobsWithoutWorker } from './job-wiring';
