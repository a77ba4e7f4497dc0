/**
 * Reference server for `npm run bench`: the least a Node process can do to answer
 * GET /api/merchant/pobo/users/:id and GET /api/merchant/international-payment-intents/:id.
 * Plain Fastify + one pg Pool, no Nest, no auth, no logging. Each route runs the same prepared
 * statement as the API's repository (`PoboBusinessesRepository.findOwned`,
 * `InternationalIntentsRepository.findOwned`) and answers the same JSON (same select list, same
 * mapper, same envelope), so the API's figures can be read as a ratio to it.
 *
 * Environment: DATABASE_URL, REF_PORT, REF_MERCHANT_ID, DB_POOL_SIZE (default 10, as the API),
 * REF_PUBLIC_BASE_URL (the API's PUBLIC_BASE_URL: the intent's receipt and telex URLs start with it).
 */
import fastify from 'fastify';
import { Pool, QueryConfig } from 'pg';
import { isId } from '../src/common/ids/ids';
import { InternationalIntentRecord, mapInternationalIntent } from '../src/modules/international-intents/international-intent.mapper';
import { INTERNATIONAL_INTENT_COLUMNS } from '../src/modules/international-intents/international-intents.repository';
import { mapPoboBusiness, PoboBusinessRecord } from '../src/modules/pobo-businesses/pobo-business.mapper';
import { POBO_BUSINESS_COLUMNS } from '../src/modules/pobo-businesses/pobo-businesses.repository';

/** The statement `PoboBusinessesRepository.findOwned` sends (the bench checks they agree). */
export function findOwnedQuery(merchantId: string, id: string): QueryConfig<string[]> {
  return {
    name: 'pobo_find_owned',
    text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1 AND merchant_id = $2`,
    values: [id, merchantId],
  };
}

/** The statement `InternationalIntentsRepository.findOwned` sends (the bench checks they agree). */
export function intentFindOwnedQuery(merchantId: string, id: string): QueryConfig<string[]> {
  return {
    name: 'ipi_find_owned',
    text: `SELECT ${INTERNATIONAL_INTENT_COLUMNS} FROM international_payment_intents WHERE id = $1 AND merchant_id = $2`,
    values: [id, merchantId],
  };
}

/** The statement `send` gives its pool (a stand-in that only records it): what a repository method sends. */
export async function statementSent(send: (pool: Pool) => Promise<unknown>): Promise<unknown> {
  let captured: unknown;
  const capturingPool = {
    query: (config: unknown) => {
      captured = config;
      return Promise.resolve({ rows: [] });
    },
  } as unknown as Pool;
  await send(capturingPool);
  return captured;
}

/** `INTERNATIONAL_INTENTS_PATH` (not imported: its module loads the whole service); run.ts requests both servers at the API's. */
const INTENTS_PATH = '/api/merchant/international-payment-intents';

const NOT_FOUND = { message: 'POBO business not found', error: { code: 'resource_not_found', details: [] } };
const INTENT_NOT_FOUND = { message: 'International payment intent not found', error: { code: 'resource_not_found', details: [] } };

async function main(): Promise<void> {
  const databaseUrl = required('DATABASE_URL');
  const merchantId = required('REF_MERCHANT_ID');
  const port = Number(required('REF_PORT'));
  const publicBaseUrl = required('REF_PUBLIC_BASE_URL');
  // The same pool settings as the API's `dataSourceOptions`.
  const pool = new Pool({
    connectionString: databaseUrl,
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 2_000,
    statement_timeout: 10_000,
    application_name: 'merchant-api-bench-reference',
  });

  const app = fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/api/merchant/pobo/users/:id', async (request, reply) => {
    const { id } = request.params;
    const row = isId('pobo', id) ? (await pool.query<PoboBusinessRecord & { seq: string }>(findOwnedQuery(merchantId, id))).rows[0] : undefined;
    if (!row) return reply.status(404).send(NOT_FOUND);
    return { message: 'Business retrieved', response: mapPoboBusiness(row) };
  });
  app.get<{ Params: { id: string } }>(`${INTENTS_PATH}/:id`, async (request, reply) => {
    const { id } = request.params;
    const row = isId('ipi', id) ? (await pool.query<InternationalIntentRecord>(intentFindOwnedQuery(merchantId, id))).rows[0] : undefined;
    if (!row) return reply.status(404).send(INTENT_NOT_FOUND);
    return { message: 'International payment intent retrieved', response: mapInternationalIntent(row, publicBaseUrl) };
  });
  app.get('/ready', async () => {
    await pool.query('SELECT 1');
    return { status: 'ok' };
  });

  const close = () => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);

  await app.listen({ port, host: '127.0.0.1' });
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`reference server failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
