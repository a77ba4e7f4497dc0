import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxEntity } from './outbox.entity';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DiscoveryModule } from '@nestjs/core';
import { bullmqTracing } from '../common/tracing/tracing';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { redisOptionsFromUrl } from '../redis/redis-options';
import { JobQueues } from './job-queues';
import { JobRegistration, JobRegistry } from './job.registry';
import { AnyJobDefinition, QueueDefinition } from './job.definition';
import { OutboxRelay } from './outbox.relay';
import { OutboxRepository } from './outbox.repository';
import { Outbox } from './outbox.service';

/**
 * Background work. Every process can write to the outbox (`Outbox`); the worker process
 * (`forRoot({ worker: true })`) also runs the registry's BullMQ workers and the outbox relay.
 * Modules declare their queue and jobs with `forFeature`.
 */
@Module({})
export class JobsModule {
  static forRoot(options: { worker: boolean }): DynamicModule {
    const workerProviders = options.worker ? [JobRegistry, OutboxRelay] : [];
    return {
      module: JobsModule,
      global: true,
      imports: [
        DiscoveryModule,
        TypeOrmModule.forFeature([OutboxEntity]),
        BullModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            // Workers block on Redis; BullMQ requires unlimited retries per request for them.
            connection: { ...redisOptionsFromUrl(config.redisUrl), maxRetriesPerRequest: null },
            prefix: config.queuePrefix,
            ...bullmqTracing(),
          }),
        }),
      ],
      providers: [Outbox, OutboxRepository, JobQueues, ...workerProviders],
      exports: [Outbox, JobQueues],
    };
  }

  static forFeature(queue: QueueDefinition, jobs: AnyJobDefinition[]): DynamicModule {
    return {
      module: JobsFeatureModule,
      imports: [BullModule.registerQueue({ name: queue.name })],
      providers: [
        { provide: `jobs:${queue.name}`, useValue: new JobRegistration(queue, jobs) },
        {
          // A queue re-emits its connection's errors; with no listener, one that comes while it is
          // still connecting (a process closed right after it started) would crash the process.
          provide: `jobs:${queue.name}:errors`,
          inject: [getQueueToken(queue.name)],
          useFactory: (bullQueue: Queue) => bullQueue.on('error', (err: Error) => new Logger('JobQueues').warn(`queue ${queue.name}: ${err.message}`)),
        },
      ],
      exports: [BullModule],
    };
  }
}

@Module({})
class JobsFeatureModule {}
