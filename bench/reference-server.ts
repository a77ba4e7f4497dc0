/**
 * Reference servers for `npm run bench`, the yardsticks of the API's reads:
 *
 * - **plain** (the floor): the least a Node process can do to answer
 *   GET /api/merchant/pobo/users/:id and GET /api/merchant/international-payment-intents/:id.
 *   Plain Fastify + one pg Pool, no Nest, no auth, no logging.
 * - **contract** (`REF_CONTRACT=1`): the same plus what the contract requires of every merchant
 *   request, done the plainest way: the X-Request-Id, the API key looked up in an in-process cache
 *   (the database on a miss), the per-key rate limit shared in Redis (rate-limiter-flexible, one
 *   call per request) with its `RateLimit-*` headers, and one access-log line per request (pino,
 *   to stdout, from a log controller as the service writes it) — the merchant's id then comes from the key. It also creates payment intents
 *   (`POST /api/merchant/payment-intents`) doing the work the contract asks of a create, the plain
 *   way: the body checked, the Idempotency-Key claimed (the service's claim statement), a virtual
 *   account opened at the bank rail (undici, `BANK_RAIL_URL`, `BANK_RAIL_API_KEY`), then the
 *   intent inserted and the key's answer stored in one transaction.
 *
 * Each route runs the same prepared statement as the API's repository
 * (`PoboBusinessesRepository.findOwned`, `InternationalIntentsRepository.findOwned`) and answers
 * the same JSON (same select list, same mapper, same envelope), so the API's figures can be read
 * as a ratio to either.
 *
 * Environment: DATABASE_URL, REF_PORT, REF_MERCHANT_ID, DB_POOL_SIZE (default 10, as the API),
 * REF_PUBLIC_BASE_URL (the API's PUBLIC_BASE_URL: the intent's receipt and telex URLs start with it);
 * for the contract one, REF_CONTRACT=1, REDIS_URL, QUEUE_PREFIX, RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST.
 */
import { randomUUID } from 'node:crypto';
import fastify, { FastifyReply, FastifyRequest, LogController } from 'fastify';
import Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { Pool, QueryConfig } from 'pg';
import pino from 'pino';
import { BurstyRateLimiter, RateLimiterRedis } from 'rate-limiter-flexible';
import { request as httpRequest } from 'undici';
import { generateRequestId } from '../src/common/http/request-id';
import { isId, newId } from '../src/common/ids/ids';
import { toMinorUnits } from '../src/common/money/money';
import { EnvironmentVariables } from '../src/config/env.schema';
import { DEFAULT_EXPIRES_IN_MINUTES } from '../src/modules/payment-intents/dto/create-payment-intent.dto';
import { requestFingerprint } from '../src/modules/idempotency/idempotency.fingerprint';
import { parseIdempotencyKey } from '../src/modules/idempotency/idempotency.key';
import { IdempotencyRepository } from '../src/modules/idempotency/idempotency.repository';
import { mapNewPaymentIntent } from '../src/modules/payment-intents/payment-intent.mapper';
import { PAYMENT_INTENTS_PATH } from '../src/modules/payment-intents/payment-intents.routes';
import { hashApiKey } from '../src/modules/auth/api-key.codec';
import { rateLimitHeaders } from '../src/modules/auth/rate-limit-state';
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

  const contract = process.env.REF_CONTRACT === '1' ? contractWork(pool) : undefined;
  const app = fastify(contract ? { loggerInstance: contract.logger, logController: new AccessLog(), genReqId: generateRequestId } : { logger: false });
  // The merchant of the request: the key's under the contract, the configured one otherwise.
  const merchantOf = (request: FastifyRequest): string => (request as ContractRequest).merchantId ?? merchantId;
  if (contract) {
    app.addHook('onRequest', contract.onRequest);
  }
  app.get<{ Params: { id: string } }>('/api/merchant/pobo/users/:id', async (request, reply) => {
    const { id } = request.params;
    const row = isId('pobo', id) ? (await pool.query<PoboBusinessRecord & { seq: string }>(findOwnedQuery(merchantOf(request), id))).rows[0] : undefined;
    if (!row) return reply.status(404).send(NOT_FOUND);
    return { message: 'Business retrieved', response: mapPoboBusiness(row) };
  });
  app.get<{ Params: { id: string } }>(`${INTENTS_PATH}/:id`, async (request, reply) => {
    const { id } = request.params;
    const row = isId('ipi', id) ? (await pool.query<InternationalIntentRecord>(intentFindOwnedQuery(merchantOf(request), id))).rows[0] : undefined;
    if (!row) return reply.status(404).send(INTENT_NOT_FOUND);
    return { message: 'International payment intent retrieved', response: mapInternationalIntent(row, publicBaseUrl) };
  });
  if (contract) app.post(PAYMENT_INTENTS_PATH, (request, reply) => contract.createPaymentIntent(request as ContractRequest, reply));
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

/** The service's settings where the bench leaves them at their defaults (the key's lock and retention). */
const SERVICE_DEFAULTS = new EnvironmentVariables();

/** One line per request once it is answered, as the service's log controller writes it; nothing when it arrives. */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.info(
      {
        request: { id: request.id, method: request.method, url: request.url, remoteAddress: request.ip },
        response: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

type ContractRequest = FastifyRequest & { merchantId?: string; merchantName?: string };

const INVALID = { message: 'Validation failed', error: { code: 'validation_failed', details: [] } };
const KEY_REUSED = { message: 'Idempotency-Key reused', error: { code: 'idempotency_key_reused', details: [] } };

/** What the contract asks of every merchant request, as hooks of the contract reference, and of a create. */
function contractWork(pool: Pool) {
  const logger = pino({ level: 'info' }, pino.destination({ fd: 1, sync: false }));
  const redis = new Redis(required('REDIS_URL'), { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  const perSecond = Number(required('RATE_LIMIT_PER_SECOND'));
  const burst = Number(required('RATE_LIMIT_BURST'));
  const keyPrefix = `${required('QUEUE_PREFIX')}:reference-rate-limit`;
  const limiter = new BurstyRateLimiter(
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:key`, points: perSecond, duration: 1 }),
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:burst`, points: Math.max(burst - perSecond, 0), duration: 10 }),
  );
  const keys = new LRUCache<string, { apiKeyId: string; merchantId: string; merchantName: string }>({ max: 10_000, ttl: 60_000 });
  const idempotency = new IdempotencyRepository(pool);
  const railUrl = required('BANK_RAIL_URL');
  const railKey = required('BANK_RAIL_API_KEY');
  const unauthorized = { message: 'Invalid or missing API key', error: { code: 'unauthorized', details: [] } };
  return {
    logger,
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('X-Request-Id', request.id);
      if (!request.url.startsWith('/api/')) return;
      const raw = request.headers['x-api-key'];
      if (typeof raw !== 'string') return reply.status(401).send(unauthorized);
      const hash = hashApiKey(raw);
      let principal = keys.get(hash);
      if (!principal) {
        const { rows } = await pool.query<{ id: string; merchant_id: string; name: string }>({
          name: 'reference_key_lookup',
          text: `SELECT k.id, k.merchant_id, m.name FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
                  WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
          values: [hash],
        });
        if (!rows[0]) return reply.status(401).send(unauthorized);
        keys.set(hash, (principal = { apiKeyId: rows[0].id, merchantId: rows[0].merchant_id, merchantName: rows[0].name }));
      }
      const used = await limiter.consume(principal.apiKeyId);
      void reply.headers(
        rateLimitHeaders({ limit: perSecond, remaining: Math.max(used.remainingPoints, 0), resetSeconds: Math.max(1, Math.ceil(used.msBeforeNext / 1000)) }),
      );
      Object.assign(request as ContractRequest, { merchantId: principal.merchantId, merchantName: principal.merchantName });
    },
    createPaymentIntent: async (request: ContractRequest, reply: FastifyReply) => {
      const merchantId = request.merchantId!;
      const header = request.headers['idempotency-key'];
      const key = typeof header === 'string' ? parseIdempotencyKey(header) : undefined;
      const body = request.body as { merchantReference?: unknown; amount?: unknown } | undefined;
      const amount = toMinorUnits(body?.amount, 'NGN');
      if (key === undefined || typeof body?.merchantReference !== 'string' || amount === undefined) return reply.status(400).send(INVALID);
      const params = {
        merchantId,
        key,
        fingerprint: requestFingerprint('POST', PAYMENT_INTENTS_PATH, {}, body),
        token: randomUUID(),
        lockMs: SERVICE_DEFAULTS.IDEMPOTENCY_LOCK_MS,
        retentionMs: SERVICE_DEFAULTS.IDEMPOTENCY_RETENTION_HOURS * 3_600_000,
        resourceId: newId('pi'),
      };
      const held = await idempotency.claimOrRead(params);
      if (!held?.claimed) {
        if (held?.status !== 'completed' || held.fingerprint !== params.fingerprint) return reply.status(409).send(KEY_REUSED);
        return reply.status(held.response_status!).header('Idempotent-Replayed', 'true').type('application/json').send(held.response_body);
      }
      const id = params.resourceId;
      const createdAt = new Date();
      const expiresAt = new Date(createdAt.getTime() + DEFAULT_EXPIRES_IN_MINUTES * 60_000);
      const rail = await httpRequest(`${railUrl}/v1/virtual-accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${railKey}`, 'idempotency-key': id, 'content-type': 'application/json' },
        body: JSON.stringify({
          reference: id,
          account_name: request.merchantName,
          currency: 'NGN',
          type: 'dynamic',
          amount,
          expires_at: expiresAt.toISOString(),
        }),
      });
      const account = (await rail.body.json()) as { id: string; account_number: string; account_name: string; bank_name: string; bank_code: string };
      if (rail.statusCode !== 201 && rail.statusCode !== 200)
        return reply.status(502).send({ message: 'Bank rail failed', error: { code: 'provider_error', details: [] } });
      const intent = {
        id,
        merchantId,
        merchantReference: body.merchantReference,
        amount,
        currency: 'NGN',
        expectedSenderBankName: null,
        expectedSenderAccountNumber: null,
        virtualAccountId: account.id,
        accountNumber: account.account_number,
        accountName: account.account_name,
        bankName: account.bank_name,
        bankCode: account.bank_code,
        expiresAt,
        createdAt,
      };
      const answer = JSON.stringify({ message: 'Payment intent created', response: mapNewPaymentIntent(intent) });
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO payment_intents (id, merchant_id, merchant_reference, amount, currency, status, virtual_account_id, account_number, account_name,
                                        bank_name, bank_code, expires_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'NGN', 'awaiting_payment', $5, $6, $7, $8, $9, $10, $11, $11)`,
          [
            id,
            merchantId,
            intent.merchantReference,
            amount,
            account.id,
            account.account_number,
            account.account_name,
            account.bank_name,
            account.bank_code,
            expiresAt,
            createdAt,
          ],
        );
        await client.query(
          `UPDATE idempotency_keys SET status = 'completed', response_status = 201, response_body = $4, recovery_point = 'finished', lock_token = NULL, locked_until = NULL
            WHERE merchant_id = $1 AND key = $2 AND lock_token = $3::uuid AND status = 'in_progress'`,
          [merchantId, key, params.token, answer],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
      return reply.status(201).type('application/json').send(answer);
    },
  };
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
