import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../common/persistence/pg-pool';

/** The one statement the readiness check sends PostgreSQL. */
@Injectable()
export class HealthRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }
}
