import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Counter, Gauge } from 'prom-client';
import { PG_POOL, statementsSent } from '../../common/persistence/pg-pool';
import { OpsMetrics } from '../metrics';

/** The process's PostgreSQL pool and the statements it sent, on its operator port. */
@Injectable()
export class PoolMetrics {
  constructor(metrics: OpsMetrics, @Inject(PG_POOL) pool: Pool) {
    new Gauge({
      name: 'pg_pool_connections',
      help: "The service's PostgreSQL pool: connections open, idle, and callers waiting for one",
      labelNames: ['state'],
      registers: [metrics.registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Counter({
      name: 'pg_statements_total',
      help: 'Statements this process sent to PostgreSQL, each round trip (BEGIN and COMMIT included), over all its pools',
      registers: [metrics.registry],
      collect() {
        this.reset();
        this.inc(statementsSent());
      },
    });
  }
}
