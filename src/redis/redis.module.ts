import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { dependencyOutages } from '../common/errors/dependency-outages';
import { APP_CONFIG, AppConfig } from '../config/app.config';

export const REDIS = Symbol('REDIS');

/**
 * One shared ioredis connection for request-path use. Commands fail fast while Redis is down
 * (no offline queue, one retry) so callers can answer 503 instead of hanging; the client keeps
 * reconnecting in the background and recovers by itself.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new Redis(config.redisUrl, {
          lazyConnect: false,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2_000,
          retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
          // Every merchant request asks Redis for its rate limit: the commands issued in one tick go
          // out in one write and come back in one read, instead of a round of syscalls each.
          enableAutoPipelining: true,
        })
          .on('error', () => {
            // Connection errors surface on the commands that need Redis and in /health/ready.
          })
          .on('ready', () => dependencyOutages.recovered('redis')),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
