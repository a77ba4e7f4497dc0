import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../../src/config/app.config';
import { prepareDatabase } from '../../src/database/migrate';
import { dropDatabase } from '../../src/database/ensure-database';

const BASE_URL = process.env.TEST_DATABASE_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A freshly created, migrated database of its own; its name always contains "test". */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `merchant_api_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = `${BASE_URL}/${name}`;
  await prepareDatabase(loadConfig({ DATABASE_URL: url, NODE_ENV: 'test' }));
  return {
    url,
    drop: async () => {
      if (!name.includes('test')) throw new Error(`refusing to drop ${name}`);
      await dropDatabase(url);
    },
  };
}

/** A connection of the suite's own, outside the application's pool: set-up and assertions. */
export async function connectTo(databaseUrl: string): Promise<Client> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  return client;
}
