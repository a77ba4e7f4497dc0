import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Client } from 'pg';
import { redisOptionsFromUrl } from '../../src/redis/redis-options';
import { acceptAgreementDirectly, kybApplication } from '../support/kyb-fixtures';
import { KybStack, startKybStack } from '../support/kyb-stack';
import { eventually } from '../support/poll';
import { createBusiness, http, TestApp } from '../support/test-app';

const INTERVAL_MS = 500;
const REVIEW_DELAY_MS = 300;
/** A Redis database of this suite's own, so flushing it touches nothing else. */
const REDIS_URL = 'redis://127.0.0.1:6379/7';

/**
 * Redis loses its data under a running worker (restarted empty, flushed): the periodic jobs
 * come back by themselves, without a restart, and a business the provider verified meanwhile
 * is verified without anyone polling it.
 */
describe('Periodic jobs after Redis lost its data', () => {
  let stack: KybStack;
  let t: TestApp;
  let pg: Client;
  let redis: Redis;
  let queue: Queue;

  beforeAll(async () => {
    stack = await startKybStack({
      name: 'flush',
      reviewDelayMs: REVIEW_DELAY_MS,
      worker: true,
      env: { REDIS_URL, PERIODIC_JOB_INTERVAL_MS: String(INTERVAL_MS) },
    });
    ({ t, pg } = stack);
    redis = new Redis(REDIS_URL);
    queue = new Queue('kyb', { connection: redisOptionsFromUrl(REDIS_URL), prefix: stack.env.QUEUE_PREFIX });
  });

  afterAll(async () => {
    await queue?.close();
    await redis?.flushdb();
    redis?.disconnect();
    await stack?.close();
  });

  it('re-creates every schedule within two intervals and the refresh resumes', async () => {
    const { apiKey } = await t.createMerchant('Flush');
    const { poboUserId: id } = await createBusiness(t, apiKey, { businessName: 'Flush Ltd' });
    await acceptAgreementDirectly(pg, id);
    expect((await http(t.baseUrl, 'POST', `/api/merchant/pobo/users/${id}/onboarding`, { apiKey, body: kybApplication('RC-FLUSH-1') })).status).toBe(202);
    // The provider has the application (forwarded by the worker); nobody polls GET …/onboarding from here on.
    const forwarded = await eventually(
      async () => (await pg.query('SELECT status FROM kyb_applications WHERE business_id = $1', [id])).rows[0]?.status,
      (status) => status === 'submitted',
      15_000,
      50,
    );
    expect(forwarded).toBe('submitted');
    expect((await queue.getJobSchedulers()).map((s) => s.key).sort()).toEqual(['kyb.purge-documents', 'kyb.refresh-processing', 'kyb.resume-forwarding']);

    await redis.flushdb();
    const flushedAt = Date.now();
    expect(await queue.getJobSchedulers()).toEqual([]);

    const schedulers = await eventually(
      () => queue.getJobSchedulers(),
      (found) => found.length === 3,
      2 * INTERVAL_MS,
      20,
    );
    expect(schedulers.map((s) => s.key).sort()).toEqual(['kyb.purge-documents', 'kyb.refresh-processing', 'kyb.resume-forwarding']);
    expect(Date.now() - flushedAt).toBeLessThanOrEqual(2 * INTERVAL_MS + 100);

    const status = await eventually(
      async () => (await pg.query('SELECT kyb_status FROM pobo_businesses WHERE id = $1', [id])).rows[0].kyb_status,
      (s) => s === 'verified',
      2 * INTERVAL_MS + REVIEW_DELAY_MS + 3_000,
      50,
    );
    expect(status).toBe('verified');
  });
});
