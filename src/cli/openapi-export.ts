import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/app.config';
import { prepareDatabase } from '../database/migrate';
import { JobQueues } from '../jobs';

const DOCUMENTS: Record<string, string> = { merchant: '/openapi.json', rails: '/openapi.rails.json' };

/**
 * `npm run openapi:export -- <file> [merchant|rails]`: writes a document the API serves (the
 * merchant API's by default, or the rails' callbacks'), for linting and client generation without
 * a running server. Boots the application (PostgreSQL and Redis must be up), creating and
 * migrating its database like `npm start` does, and asks it for the document.
 */
async function main(file: string | undefined, which = 'merchant'): Promise<void> {
  const url = DOCUMENTS[which];
  if (!file || !url) throw new Error('usage: npm run openapi:export -- <file.json> [merchant|rails]');
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  // The application boots as it would serve: its database must exist and be migrated.
  await prepareDatabase(config);
  const app = await createApp(config);
  try {
    const served = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url });
    if (served.statusCode !== 200) throw new Error(`GET ${url} answered ${served.statusCode}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(served.json(), null, 2)}\n`);
  } finally {
    await app.get(JobQueues).ready();
    await app.close();
  }
}

main(process.argv[2], process.argv[3]).catch((err: Error) => {
  process.stderr.write(`openapi export failed: ${err.message}\n`);
  process.exit(1);
});
