import type { Pool } from 'pg';
import { Medium, startMedium } from '../../../test/support/medium';
import { OpsMetrics } from '../../modules/metrics';
import { PoolMetrics } from '../../modules/ops/pool-metrics';
import { PG_POOL, statementsSent } from './pg-pool';

/** Every statement the service's pool sends is counted, each round trip once, and shown on the operator port. */
describe('statements sent to PostgreSQL (medium)', () => {
  let m: Medium;

  beforeAll(async () => {
    m = await startMedium({ name: 'pg-statements', providers: [PoolMetrics] });
  });

  afterAll(() => m?.close());

  const counted = async (work: () => Promise<unknown>): Promise<number> => {
    const before = statementsSent();
    await work();
    return statementsSent() - before;
  };

  it('counts a TypeORM query, a transaction with its BEGIN and COMMIT, and a prepared statement of the pool', async () => {
    expect(await counted(() => m.dataSource.query('SELECT 1'))).toBe(1);
    expect(
      await counted(() =>
        m.dataSource.transaction(async (manager) => {
          await manager.query('SELECT 1');
          await manager.query('SELECT 2');
        }),
      ),
    ).toBe(4);
    const pool = m.app.get<Pool>(PG_POOL);
    expect(await counted(() => pool.query({ name: 'statements_spec', text: 'SELECT $1::int AS n', values: [1] }))).toBe(1);
    // The spec's own connection is not the service's: not counted.
    expect(await counted(() => m.pg.query('SELECT 1'))).toBe(0);
  });

  it('shows the count as pg_statements_total on the operator port', async () => {
    const registry = m.app.get(OpsMetrics).registry;
    const read = async () => Number(/^pg_statements_total (\d+)$/m.exec(await registry.getSingleMetricAsString('pg_statements_total'))?.[1]);
    const before = await read();
    await m.dataSource.query('SELECT 1');
    expect(await read()).toBe(before + 1);
    expect(before).toBe(statementsSent() - 1);
  });
});
