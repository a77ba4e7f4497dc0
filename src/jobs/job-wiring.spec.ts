import { Module } from '@nestjs/common';
import { AppModule } from '../app.module';
import { createRootLogger } from '../common/logging/logger.options';
import { loadConfig } from '../config/app.config';
import { WorkerModule } from '../worker.module';
import { defineJob, defineQueue } from './job.definition';
import { jobsWithoutWorker, registeredJobs } from './job-wiring';
import { JobsModule } from './jobs.module';

describe('job wiring between the API and the worker', () => {
  const config = loadConfig({ NODE_ENV: 'test' });
  const logger = createRootLogger(config);

  it('the worker handles every job the API can enqueue', () => {
    const api = registeredJobs(AppModule.forRoot(config, { logger }));
    expect(api.size).toBeGreaterThan(10);
    expect(jobsWithoutWorker(AppModule.forRoot(config, { logger }), WorkerModule.forRoot(config, logger))).toEqual([]);
  });

  it('names a job that a producer registers and the worker does not', () => {
    const queue = defineQueue('orphans', 1);
    const orphan = defineJob<{ id: string }>({ queue, name: 'orphans.lost', jobId: ({ id }) => id });
    @Module({ imports: [JobsModule.forFeature(queue, [orphan])] })
    class OrphanModule {}
    @Module({ imports: [OrphanModule] })
    class Producer {}
    expect(registeredJobs(Producer).has('orphans.lost')).toBe(true);
    expect(jobsWithoutWorker(Producer, WorkerModule.forRoot(config, logger))).toEqual(['orphans.lost']);
  });
});
