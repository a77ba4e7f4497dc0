import { Medium, startMedium } from '../../../test/support/medium';
import { unfinished } from './money-census.repository';
import { MoneyCensusModule } from './money-census.module';
import { MoneyCensusService } from './money-census.service';
import { MONEY_OBJECT_SOURCES } from './money-census.sources';

/** The money census against the migrated schema: each kind's unfinished rows are read through their own index. */
describe('MoneyCensusService (medium)', () => {
  let m: Medium;

  beforeAll(async () => {
    m = await startMedium({ name: 'money-census', imports: [MoneyCensusModule] });
  });

  afterAll(() => m?.close());

  it.each(MONEY_OBJECT_SOURCES.map((source) => [source.kind, source] as const))(
    "%s: the declared unfinished statuses are the predicate of the table's index of them, and the census's read uses it",
    async (_kind, source) => {
      const [index] = await m.sql<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexname = $2`, [
        source.table,
        `idx_${source.table}_unfinished`,
      ]);
      const listed = [...(/WHERE \(status = ANY \(ARRAY\[(.*)\]\)\)/.exec(index.indexdef)?.[1] ?? '').matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
      expect(listed).toEqual(Object.keys(source.steps));
      await m.sql('SET enable_seqscan = off');
      try {
        const plan = await m.sql<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT status, count(*) FROM "${source.table}" WHERE ${unfinished(source)} GROUP BY status`,
        );
        expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(`idx_${source.table}_unfinished`);
      } finally {
        await m.sql('RESET enable_seqscan');
      }
    },
  );

  it('answers every kind, nothing unfinished or stuck in an empty database', async () => {
    const census = m.app.get(MoneyCensusService);
    expect(await census.census()).toEqual([]);
    expect(await census.stuck()).toEqual([]);
    expect(census.kinds).toEqual(['payment_intent', 'withdrawal', 'international_payment_intent', 'vault_transfer']);
    expect(await census.history('withdrawal', 'wd_000000000000000000000000')).toBeNull();
    expect(await census.history('no_such_kind', 'x')).toBeNull();
  });
});
