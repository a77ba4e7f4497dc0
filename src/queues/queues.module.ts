import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { Jobs } from './jobs';
import { KYB_QUEUE, NAIRA_QUEUE } from './queue-names';
import { redisOptionsFromUrl } from '../redis/redis-options';

/** BullMQ queues, shared by the API (producer) and the worker (processors). */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        // Workers block on Redis; BullMQ requires unlimited retries per request for them.
        connection: { ...redisOptionsFromUrl(config.redisUrl), maxRetriesPerRequest: null },
        prefix: config.queuePrefix,
        defaultJobOptions: {
          attempts: 8,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { age: 3_600, count: 10_000 },
          // Failed jobs are kept a week for inspection (and retried by the sweep).
          removeOnFail: { age: 7 * 24 * 3_600 },
        },
      }),
    }),
    BullModule.registerQueue({ name: KYB_QUEUE }, { name: NAIRA_QUEUE }),
  ],
  providers: [Jobs],
  exports: [BullModule, Jobs],
})
export class QueuesModule {}
