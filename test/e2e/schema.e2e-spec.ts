import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app.config';
import { dataSourceOptions } from '../../src/database/database.options';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** CI fails when entities and checked-in migrations disagree, or a migration cannot be reverted. */
describe('Migrations', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource({ ...dataSourceOptions(loadConfig({ DATABASE_URL: db.url })), logging: false }).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('leave nothing for the entities to change', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('all revert and re-apply cleanly', async () => {
    const applied = dataSource.migrations.length;
    for (let i = 0; i < applied; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    const tables = await dataSource.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'",
    );
    expect(tables).toEqual([]);
    await dataSource.runMigrations({ transaction: 'each' });
    expect((await dataSource.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });
});
