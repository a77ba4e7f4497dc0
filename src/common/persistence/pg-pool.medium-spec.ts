import type { Pool, PoolClient } from 'pg';
import { Medium, startMedium } from '../../../test/support/medium';
import { dependencyOutages } from '../errors/dependency-outages';
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

/** A backend that ends while its connection is checked out: an outage to log, never the end of the process. */
describe('a connection lost while checked out (medium)', () => {
  let m: Medium;

  beforeAll(async () => {
    m = await startMedium({ name: 'pg-lost-checked-out' });
  });

  afterAll(() => m?.close());

  it('every connection of the pool, the first one TypeORM opened before the pool could be watched included, hears its error', async () => {
    const pool = m.app.get<Pool>(PG_POOL);
    // The connections the pool has already, the one TypeORM opened at start among them: idle, they are handed out first.
    const clients: PoolClient[] = [];
    for (let i = pool.idleCount; i > 0; i--) clients.push(await pool.connect());
    expect(clients.length).toBeGreaterThan(0);
    const pids = await Promise.all(clients.map(async (client) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid));
    const failed = jest.spyOn(dependencyOutages, 'failed');
    // Each client emits 'error' at once, with no query of its holder's to fail: unheard, that is an
    // uncaught exception, and the end of a server. The service's own listener reports the outage.
    await m.pg.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    await waitFor(() => failed.mock.calls.length >= clients.length);
    expect(failed.mock.calls.every(([failure]) => failure.dependency === 'database')).toBe(true);
    failed.mockRestore();
    for (const client of clients) await expect(client.query('SELECT 1')).rejects.toThrow();
    for (const client of clients) client.release(true);
    expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows[0].n).toBe(1);
  });
});

async function waitFor(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !done();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
