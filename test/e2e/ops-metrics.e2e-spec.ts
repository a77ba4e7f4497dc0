import { INestApplicationContext } from '@nestjs/common';
import { OpsEndpoint } from '../../src/modules/ops';
import { startAppAtPublicUrl } from '../support/browser';
import { DashboardClient } from '../support/dashboard';
import { eventually } from '../support/poll';
import { createBusiness, http, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestWorker } from '../support/test-worker';

/** Label values that would identify someone or something: an id, a key, a token, an e-mail. */
const IDENTIFYING = [/[a-z]+_[0-9a-f]{24}/, /mk_(test|live)_/, /@/, /[0-9a-f]{32}/];

/** Every `name{labels} value` line's label values. */
function labelValues(text: string): string[] {
  return [...text.matchAll(/\{([^}]*)\}/g)].flatMap((match) => [...match[1].matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((value) => value[1]));
}

/**
 * The operator ports: each process's metrics in Prometheus's text format on a port of its own,
 * bound to loopback, never on the public port; requests by route template, never by URL.
 */
describe('Operator port (metrics)', () => {
  let db: TestDatabase;
  let t: TestApp;
  let worker: INestApplicationContext;
  let apiKey: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = await createTestDatabase();
    // At its public URL: the dashboard's changes (a webhook endpoint, its test event) carry its Origin.
    t = await startAppAtPublicUrl(db.url);
    receiver = await WebhookReceiver.start();
    worker = await startTestWorker(db.url);
    apiKey = (await t.createMerchant()).apiKey;
  });

  afterAll(async () => {
    await receiver?.close();
    await worker?.close();
    await t?.close();
    await db?.drop();
  });

  const scrape = async (port: number | undefined) => {
    expect(port).toBeGreaterThan(0);
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it("answers the API's requests by route template and status, its process and pool, and no label that identifies anyone", async () => {
    const business = await createBusiness(t, apiKey, { businessName: 'Metrics Ltd', email: 'finance@metrics.example' });
    expect((await http(t.baseUrl, 'GET', `/api/merchant/pobo/users/${business.poboUserId}`, { apiKey })).status).toBe(200);
    expect((await http(t.baseUrl, 'GET', '/api/merchant/pobo/users/pobo_000000000000000000000000', { apiKey })).status).toBe(404);
    expect((await http(t.baseUrl, 'GET', `/no/such/${business.poboUserId}?token=${apiKey}`)).status).toBe(404);

    const text = await scrape(t.app.get(OpsEndpoint).port);
    for (const family of ['http_request_duration_seconds', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'pg_pool_connections']) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/merchant\/pobo\/users\/:poboUserId",status_code="200"\} 1\n/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/merchant\/pobo\/users\/:poboUserId",status_code="404"\} 1\n/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/api\/merchant\/pobo\/users",status_code="201"\} 1\n/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1\n/);
    expect(text).toMatch(/pg_pool_connections\{state="total"\} [1-9]/);
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(10);
    for (const value of values) for (const pattern of IDENTIFYING) expect({ value, identifying: pattern.test(value) }).toEqual({ value, identifying: false });
  });

  it("answers the worker's queues by state, the outbox, and webhook deliveries by outcome", async () => {
    const d = new DashboardClient(t.baseUrl);
    const owner = await d.signUp();
    const endpoint = await d.as(owner, 'POST', '/webhook-endpoints', { url: receiver.url, enabledEvents: ['*'] });
    expect(endpoint.status).toBe(201);
    expect((await d.as(owner, 'POST', `/webhook-endpoints/${endpoint.body.response.webhookEndpointId}/test`)).status).toBeLessThan(300);
    await receiver.until((received) => received.length === 1);

    // The attempt is counted once its outcome is recorded, which follows the receiver's answer.
    const delivered = /webhook_delivery_attempt_duration_seconds_count\{outcome="delivered"\} 1\n/;
    const text = await eventually(
      () => scrape(worker.get(OpsEndpoint).port),
      (scraped) => delivered.test(scraped),
      5_000,
      50,
    );
    expect(text).toMatch(delivered);
    expect(text).toMatch(/outbox_backlog \d+\n/);
    expect(text).toMatch(/outbox_oldest_seconds \d/);
    for (const family of ['bullmq_queue_jobs', 'bullmq_queue_oldest_waiting_seconds', 'process_resident_memory_bytes', 'pg_pool_connections']) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(text).toMatch(new RegExp(`bullmq_queue_jobs\\{queue="[a-z-]+",state="${state}"\\} \\d+`));
    expect(text).toMatch(/bullmq_queue_oldest_waiting_seconds\{queue="[a-z-]+"\} \d/);
    for (const value of labelValues(text)) for (const pattern of IDENTIFYING) expect(pattern.test(value)).toBe(false);
  });

  it('serves nothing of it on the public port, and nothing else on the operator port', async () => {
    for (const path of ['/metrics', '/ops/metrics', '/api/metrics']) expect((await fetch(`${t.baseUrl}${path}`)).status).toBe(404);
    const port = t.app.get(OpsEndpoint).port;
    expect((await fetch(`http://127.0.0.1:${port}/api/merchant/pobo/users`, { headers: { 'x-api-key': apiKey } })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(404);
  });
});
