import { Inject, Injectable, Module } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '../../redis/redis.module';
import { HealthRepository } from './health.repository';

/** How long each dependency has to answer before it counts as down. */
const PING_TIMEOUT_MS = 1_000;

export interface DependencyStates {
  database: boolean;
  redis: boolean;
}

/** Whether PostgreSQL and Redis answer: the public readiness (terse) and the operator port's (detailed) both ask it. */
@Injectable()
export class Readiness {
  constructor(
    private readonly repository: HealthRepository,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<DependencyStates> {
    const [database, redis] = await Promise.all([answers(this.repository.ping()), answers(this.redis.ping())]);
    return { database, redis };
  }
}

/** True once `call` succeeds, false when it fails or takes longer than the timeout (its late outcome is dropped). */
function answers(call: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    call.then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PING_TIMEOUT_MS).unref()),
  ]);
}

@Module({ providers: [Readiness, HealthRepository], exports: [Readiness] })
export class ReadinessModule {}
