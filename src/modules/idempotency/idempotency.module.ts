import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { IDEMPOTENCY_JOBS, IDEMPOTENCY_QUEUE } from './idempotency.jobs';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** Owns `idempotency_keys`. */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([IdempotencyKeyEntity]), JobsModule.forFeature(IDEMPOTENCY_QUEUE, Object.values(IDEMPOTENCY_JOBS))],
  providers: [IdempotencyService, IdempotencyRepository],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
