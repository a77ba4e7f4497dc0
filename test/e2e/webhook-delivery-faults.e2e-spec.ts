import { ApiProcess, spawnWorker } from '../support/api-process';
import { startAppAtPublicUrl } from '../support/browser';
import { DashboardClient } from '../support/dashboard';
import { createInternationalIntent, createQuote, intentBody, INTENTS, isFinal, verifiedBusiness } from '../support/international';
import { createIntent, fundBalance } from '../support/money-stack';
import { eventually } from '../support/poll';
import { startStack, Stack } from '../support/stack';
import { http } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** A merchant as the dashboard makes one, with an API key and an endpoint at each URL. */
async function merchantWithEndpoints(dashboard: DashboardClient, urls: string[]): Promise<{ apiKey: string; endpoints: string[] }> {
  const owner = await dashboard.signUp();
  const key = await dashboard.as(owner, 'POST', '/api-keys', { name: 'server' });
  const endpoints: string[] = [];
  for (const url of urls)
    endpoints.push((await dashboard.as(owner, 'POST', '/webhook-endpoints', { url, enabledEvents: ['*'] })).body.response.webhookEndpointId);
  return { apiKey: key.body.response.apiKey, endpoints };
}

/**
 * Endpoints that never answer, answer in 14 s or drip their answer a byte at a time hold only
 * their own few requests: another merchant's endpoint still gets each event at once, and the money
 * pipeline runs as fast as without them. The worker runs the real 15 s timeout.
 */
describe('Webhook isolation', () => {
  let stack: Stack;
  let dashboard: DashboardClient;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await startStack({
      name: 'webhook-isolation',
      startApp: startAppAtPublicUrl,
      sandboxes: { payoutDelayMs: 20 },
      crossBorder: { settlementStepMs: 20 },
      worker: true,
      env: { PERIODIC_JOB_INTERVAL_MS: '300', PROVIDER_TIMEOUT_MS: '2000' },
    });
    dashboard = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await stack?.close();
  });

  async function receiver(answer: WebhookReceiver['answer']): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start();
    started.answer = answer;
    receivers.push(started);
    return started;
  }

  /** Settles `count` international intents of the merchant one after another, answering how long it took. */
  async function settleIntents(apiKey: string, poboUserId: string, count: number): Promise<number> {
    const started = Date.now();
    for (let i = 0; i < count; i++) {
      const intent = await createInternationalIntent(stack.t, apiKey, intentBody(await createQuote(stack.t, apiKey, { poboUserId })));
      const final = await eventually(
        async () => (await http(stack.t.baseUrl, 'GET', `${INTENTS}/${intent.intentId}`, { apiKey })).body.response,
        isFinal,
        30_000,
        25,
      );
      expect(final.status).toBe('settled');
    }
    return Date.now() - started;
  }

  it('a merchant’s endpoint gets each event within 2 s, and intents settle as fast, while another’s endpoints hang, stall and drip', async () => {
    const never = await receiver(() => 'never');
    const slow = await receiver(() => ({ status: 200, delayMs: 14_000 }));
    const drip = await receiver(() => ({ drip: 500 }));
    const bad = await merchantWithEndpoints(dashboard, [never.url, slow.url, drip.url]);
    const quiet = await merchantWithEndpoints(dashboard, []);
    const good = await receiver(() => ({ status: 200 }));
    const other = await merchantWithEndpoints(dashboard, [good.url]);

    // The reference: the pipeline of a merchant without endpoints, before any endpoint is busy.
    await fundBalance(stack.t, quiet.apiKey, 5_000_000);
    const quietBusiness = await verifiedBusiness(stack, quiet.apiKey);
    const without = await settleIntents(quiet.apiKey, quietBusiness, 3);

    // The bad endpoints' events pile up: far more than their few requests at a time.
    await fundBalance(stack.t, bad.apiKey, 5_000_000);
    const badBusiness = await verifiedBusiness(stack, bad.apiKey);
    for (let i = 0; i < 10; i++) await createIntent(stack.t, bad.apiKey);
    await never.until((got) => got.length >= 2);
    await drip.until((got) => got.length >= 2);

    for (let i = 0; i < 3; i++) {
      const before = good.received.length;
      const sent = Date.now();
      await createIntent(stack.t, other.apiKey);
      const [arrived] = (await good.until((got) => got.length > before, 5_000)).slice(before);
      expect(arrived).toBeDefined();
      expect(arrived.at - sent).toBeLessThan(2_000);
    }

    const withBadEndpoints = await settleIntents(bad.apiKey, badBusiness, 3);
    // The same work, with every event of it owed to three endpoints that never answer in time: were
    // deliveries in the pipeline's way, each step would wait out a 15 s timeout.
    expect(withBadEndpoints).toBeLessThan(without * 1.5 + 2_000);
    // Each bad endpoint held at most its own few requests at once.
    expect(never.received.length).toBeLessThanOrEqual(4);
  }, 60_000);
});

/** The worker as its own process, killed with SIGKILL while a delivery is under way. */
describe('Webhook delivery across a worker crash', () => {
  let stack: Stack;
  let dashboard: DashboardClient;
  let worker: ApiProcess | undefined;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    stack = await startStack({ name: 'webhook-crash', startApp: startAppAtPublicUrl, sandboxes: {}, worker: false, env: { WEBHOOK_TIMEOUT_MS: '2000' } });
    dashboard = new DashboardClient(stack.t.baseUrl);
    hooks = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await worker?.kill();
    await hooks?.close();
    await stack?.close();
  });

  it('sends the event again after a restart, with the same webhook-id: at least once, never lost', async () => {
    worker = await spawnWorker(stack.db.url, stack.env);
    // The first request is never answered: the worker is killed while it waits.
    hooks.answer = (_request, n) => (n === 1 ? 'never' : { status: 200 });
    const { apiKey, endpoints } = await merchantWithEndpoints(dashboard, [hooks.url]);
    const intent = await createIntent(stack.t, apiKey);
    const [first] = await hooks.until((got) => got.length >= 1);
    await worker.kill();
    worker = await spawnWorker(stack.db.url, stack.env);

    const [, again] = await hooks.until((got) => got.length >= 2, 20_000);
    expect(again.id).toBe(first.id);
    expect(again.body).toEqual(first.body);
    expect(first.body.data.object.paymentIntentId).toBe(intent.paymentIntentId);
    const owner = await dashboard.logIn(
      (await stack.pg.query(`SELECT email FROM users WHERE merchant_id = (SELECT merchant_id FROM webhook_endpoints WHERE id = $1)`, [endpoints[0]])).rows[0]
        .email,
    );
    const attempts = await eventually(
      async () => (await dashboard.as(owner, 'GET', `/webhook-endpoints/${endpoints[0]}/deliveries`)).body.response as any[],
      (found) => found.some((attempt) => attempt.statusCode === 200),
      10_000,
      100,
    );
    // The killed attempt left no record; the one after the restart delivered.
    expect(attempts.map((attempt) => [attempt.eventId, attempt.statusCode])).toEqual([[first.id, 200]]);
    expect(hooks.of(first.id)).toHaveLength(2);
  }, 60_000);
});
