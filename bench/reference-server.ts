/**
 * Reference server for `npm run bench`: the least a Node process can do to answer
 * GET /api/merchant/pobo/users/:id. Plain Fastify + one pg Pool, no Nest, no auth, no logging.
 * It runs the same prepared statement as `PoboBusinessesRepository.findOwned` and answers the same
 * JSON (same select list, same mapper), so the API's figures can be read as a ratio to it.
 *
 * Environment: DATABASE_URL, REF_PORT, REF_MERCHANT_ID, DB_POOL_SIZE (default 10, as the API).
 */
import fastify from 'fastify';
import { Pool, QueryConfig } from 'pg';
import { isId } from '../src/common/ids/ids';
import { mapPoboBusiness, POBO_BUSINESS_COLUMNS, PoboBusinessRecord } from '../src/modules/pobo-businesses/pobo-business.mapper';

/** The statement `PoboBusinessesRepository.findOwned` sends (the bench checks they agree). */
export function findOwnedQuery(merchantId: string, id: string): QueryConfig<string[]> {
  return {
    name: 'pobo_find_owned',
    text: `SELECT ${POBO_BUSINESS_COLUMNS} FROM pobo_businesses WHERE id = $1 AND merchant_id = $2`,
    values: [id, merchantId],
  };
}

const NOT_FOUND = { message: 'POBO business not found', error: { code: 'resource_not_found', details: [] } };

async function main(): Promise<void> {
  const databaseUrl = required('DATABASE_URL');
  const merchantId = required('REF_MERCHANT_ID');
  const port = Number(required('REF_PORT'));
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
    const row = isId('pobo', id)
      ? (await pool.query<PoboBusinessRecord & { seq: string }>(findOwnedQuery(merchantId, id))).rows[0]
      : undefined;
    if (!row) return reply.status(404).send(NOT_FOUND);
    return { message: 'Business retrieved', response: mapPoboBusiness(row) };
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
