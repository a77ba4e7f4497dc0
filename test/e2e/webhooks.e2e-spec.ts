import { nubanFor } from '../../src/common/banking/nuban';
import { expectErrorBody } from '../support/contract';
import { startAppAtPublicUrl } from '../support/browser';
import { DashboardClient, DashboardUser } from '../support/dashboard';
import { createIntent, fundBalance, getIntent, MoneyStack, post, startMoneyStack } from '../support/money-stack';
import { eventually } from '../support/poll';
import { http } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { verifies } from '../support/webhooks';

const RETRY_STEP_MS = 300;
const DISABLE_AFTER_MS = 1_500;

/**
 * Webhooks end to end: endpoints set up from the dashboard, events pushed by the real worker to
 * real HTTP receivers on localhost, signed per Standard Webhooks and checked with its library,
 * retried on a (shortened) schedule, disabled by a 410 or by failing too long, resent and recovered.
 */
describe('Webhooks', () => {
  let stack: MoneyStack;
  let dashboard: DashboardClient;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await startMoneyStack({
      name: 'webhooks',
      startApp: startAppAtPublicUrl,
      env: { WEBHOOK_RETRY_SCHEDULE_MS: Array(10).fill(RETRY_STEP_MS).join(','), WEBHOOK_DISABLE_AFTER_MS: String(DISABLE_AFTER_MS) },
    });
    dashboard = new DashboardClient(stack.t.baseUrl);
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await stack?.close();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  }

  /** A merchant as the dashboard makes one: its owner signed in and an API key. */
  async function merchant(): Promise<{ owner: DashboardUser; apiKey: string }> {
    const owner = await dashboard.signUp();
    const key = await dashboard.as(owner, 'POST', '/api-keys', { name: 'server' });
    expect(key.status).toBe(201);
    return { owner, apiKey: key.body.response.apiKey };
  }

  async function endpoint(owner: DashboardUser, url: string, enabledEvents: string[] = ['*']): Promise<{ webhookEndpointId: string; secret: string }> {
    const created = await dashboard.as(owner, 'POST', '/webhook-endpoints', { url, enabledEvents });
    expect(created.status).toBe(201);
    return created.body.response;
  }

  it('sets an endpoint up with its secret shown once, never in reads, and revealed only on an owner’s request', async () => {
    const { owner } = await merchant();
    const hooks = await receiver();
    const created = await endpoint(owner, hooks.url, ['payment_intent.succeeded']);
    expect(created).toEqual(
      expect.objectContaining({
        webhookEndpointId: expect.stringMatching(/^we_[0-9a-f]{24}$/),
        url: hooks.url,
        enabledEvents: ['payment_intent.succeeded'],
        disabled: false,
      }),
    );
    expect(Buffer.from(created.secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);

    const one = await dashboard.as(owner, 'GET', `/webhook-endpoints/${created.webhookEndpointId}`);
    const list = await dashboard.as(owner, 'GET', '/webhook-endpoints');
    expect(one.status).toBe(200);
    expect(one.text).not.toContain(created.secret);
    expect(list.text).not.toContain(created.secret);
    expect(list.body.response.map((e: any) => e.webhookEndpointId)).toEqual([created.webhookEndpointId]);

    const revealed = await dashboard.as(owner, 'POST', `/webhook-endpoints/${created.webhookEndpointId}/reveal-secret`);
    expect(revealed.status).toBe(200);
    expect(revealed.body.response.secret).toBe(created.secret);

    const audit = await dashboard.as(owner, 'GET', '/audit-log');
    expect(audit.body.response.map((entry: any) => entry.action)).toEqual(
      expect.arrayContaining(['webhook_endpoint.created', 'webhook_endpoint.secret_revealed']),
    );
    expect(audit.text).not.toContain(created.secret);
  });

  it("delivers each change once, signed, its object the resource's GET at that moment, and nothing for a change that rolled back", async () => {
    const { owner, apiKey } = await merchant();
    const hooks = await receiver();
    const { secret } = await endpoint(owner, hooks.url);
    const intent = await createIntent(stack.t, apiKey, { amount: 700 });
    const afterCreate = await getIntent(stack.t, apiKey, intent.paymentIntentId);
    const [first] = await hooks.until((got) => got.length >= 1);
    expect(first.body).toEqual(expect.objectContaining({ type: 'payment_intent.created', eventId: first.id, data: { object: afterCreate } }));
    expect(Number(first.timestamp)).toBeCloseTo(Date.now() / 1000, -2);
    expect(verifies(secret, first)).toBe(true);
    expect(verifies(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, first)).toBe(false);
    const stored = await http(stack.t.baseUrl, 'GET', `/api/merchant/events/${first.id}`, { apiKey });
    expect(JSON.parse(first.raw)).toEqual(stored.body.response);

    // A withdrawal the balance cannot pay rolls back: no event, so nothing is sent.
    const refused = await post(stack.t, apiKey, '/api/merchant/withdrawals', {
      merchantReference: 'too-much',
      amount: 1_000_000,
      bankCode: '044',
      accountNumber: nubanFor('044', '069000003'),
      accountName: 'Acme Stores Ltd',
    });
    expectErrorBody(refused, 409, 'insufficient_funds');
    await fundBalance(stack.t, apiKey, 1_000);
    const types = (await hooks.until((got) => got.some((r) => r.body.type === 'payment_intent.succeeded'))).map((r) => r.body.type);
    expect(types).not.toContain('withdrawal.created');
    // Exactly once each: one request per event.
    expect(new Set(hooks.received.map((r) => r.id)).size).toBe(hooks.received.length);
  });

  it('retries a failed delivery with the same webhook-id after the schedule’s wait, and lists each attempt', async () => {
    const { owner, apiKey } = await merchant();
    const hooks = await receiver();
    hooks.answer = (_request, n) => (n === 1 ? { status: 500, body: 'boom' } : { status: 204 });
    const { webhookEndpointId } = await endpoint(owner, hooks.url, ['payment_intent.created']);
    await createIntent(stack.t, apiKey);
    const [failed, delivered] = await hooks.until((got) => got.length >= 2);
    expect(delivered.id).toBe(failed.id);
    expect(delivered.at - failed.at).toBeGreaterThanOrEqual(RETRY_STEP_MS * 0.9);

    const attempts = await eventually(
      async () => (await dashboard.as(owner, 'GET', `/webhook-endpoints/${webhookEndpointId}/deliveries`)).body.response,
      (found: any[]) => found.length === 2,
      5_000,
      50,
    );
    expect(attempts.map((a: any) => [a.eventId, a.attempt, a.statusCode])).toEqual([
      [failed.id, 2, 204],
      [failed.id, 1, 500],
    ]);
    expect(attempts[1]).toEqual(expect.objectContaining({ responseBody: 'boom', nextRetryAt: expect.any(String), error: null }));
    expect(attempts[0].nextRetryAt).toBeNull();
  });

  it('disables an endpoint that answers 410 Gone at once', async () => {
    const { owner, apiKey } = await merchant();
    const hooks = await receiver();
    hooks.answer = () => ({ status: 410 });
    const { webhookEndpointId } = await endpoint(owner, hooks.url);
    await createIntent(stack.t, apiKey);
    await hooks.until((got) => got.length >= 1);
    const disabled = await eventually(
      async () => (await dashboard.as(owner, 'GET', `/webhook-endpoints/${webhookEndpointId}`)).body.response,
      (found: any) => found.disabled,
      5_000,
      50,
    );
    expect(disabled).toEqual(expect.objectContaining({ disabled: true, disabledReason: 'gone' }));
    await createIntent(stack.t, apiKey);
    await new Promise((resolve) => setTimeout(resolve, RETRY_STEP_MS * 3));
    expect(hooks.received).toHaveLength(1);
  });

  it('disables an endpoint that failed every attempt for the configured time and mails the owners', async () => {
    const { owner, apiKey } = await merchant();
    const hooks = await receiver();
    hooks.answer = () => ({ status: 500 });
    const { webhookEndpointId } = await endpoint(owner, hooks.url);
    await createIntent(stack.t, apiKey);
    const disabled = await eventually(
      async () => (await dashboard.as(owner, 'GET', `/webhook-endpoints/${webhookEndpointId}`)).body.response,
      (found: any) => found.disabled,
      10_000,
      100,
    );
    expect(disabled).toEqual(expect.objectContaining({ disabled: true, disabledReason: 'failing', failingSince: expect.any(String) }));
    const sent = hooks.received.length;
    expect(sent).toBeGreaterThanOrEqual(DISABLE_AFTER_MS / RETRY_STEP_MS - 1);
    const mail = await eventually(
      () => stack.inbox.messagesTo(owner.email),
      (found) => found.some((m) => /webhook endpoint was disabled/.test(m.subject)),
      10_000,
      100,
    );
    expect(mail.find((m) => /disabled/.test(m.subject))!.text).toContain(hooks.url);
  });

  it('signs with both secrets during a rotation’s overlap, each signature verifying with its own', async () => {
    const { owner } = await merchant();
    const hooks = await receiver();
    const { webhookEndpointId, secret: old } = await endpoint(owner, hooks.url);
    const rotated = await dashboard.as(owner, 'POST', `/webhook-endpoints/${webhookEndpointId}/rotate-secret`);
    expect(rotated.status).toBe(201);
    const fresh = rotated.body.response.secret as string;
    expect(fresh).not.toBe(old);
    const tested = await dashboard.as(owner, 'POST', `/webhook-endpoints/${webhookEndpointId}/test`);
    expect(tested.status).toBe(202);
    const [request] = await hooks.until((got) => got.length >= 1);
    expect(request.body.type).toBe('webhook_endpoint.test');
    expect(request.body.data.object.webhookEndpointId).toBe(webhookEndpointId);
    const signatures = request.signature.split(' ');
    expect(signatures).toHaveLength(2);
    for (const [secret, signature] of [
      [fresh, signatures[0]],
      [old, signatures[1]],
    ])
      expect(verifies(secret, { ...request, signature })).toBe(true);
  });

  it('resends one event, and recovers exactly the events an endpoint has not acknowledged', async () => {
    const { owner, apiKey } = await merchant();
    const hooks = await receiver();
    let down = true;
    hooks.answer = () => (down ? { status: 503, headers: { 'retry-after': '3600' } } : { status: 200 });
    const { webhookEndpointId } = await endpoint(owner, hooks.url, ['payment_intent.created']);
    const intents = [await createIntent(stack.t, apiKey), await createIntent(stack.t, apiKey)];
    await hooks.until((got) => new Set(got.map((r) => r.id)).size === 2);
    // Retry-After holds the next attempt an hour away: only a recovery sends them sooner.
    const undelivered = await http(stack.t.baseUrl, 'GET', `/api/merchant/events?undeliveredTo=${webhookEndpointId}`, { apiKey });
    expect(undelivered.status).toBe(200);
    expect(undelivered.body.response.map((e: any) => e.data.object.paymentIntentId).sort()).toEqual(intents.map((i) => i.paymentIntentId).sort());

    down = false;
    hooks.received.length = 0;
    const recovered = await dashboard.as(owner, 'POST', `/webhook-endpoints/${webhookEndpointId}/recover`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(recovered.status).toBe(202);
    expect(recovered.body.response).toEqual({ resent: 2 });
    await hooks.until((got) => got.length >= 2);
    // Acknowledged once the attempts are recorded, just after the answers.
    const none = await eventually(
      async () => (await http(stack.t.baseUrl, 'GET', `/api/merchant/events?undeliveredTo=${webhookEndpointId}`, { apiKey })).body.response,
      (found: any[]) => found.length === 0,
      5_000,
      50,
    );
    expect(none).toEqual([]);
    const again = await dashboard.as(owner, 'POST', `/webhook-endpoints/${webhookEndpointId}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
    expect(again.body.response).toEqual({ resent: 0 });

    const eventId = hooks.received[0].id;
    const resent = await dashboard.as(owner, 'POST', `/events/${eventId}/resend`, { webhookEndpointId });
    expect(resent.status).toBe(202);
    await hooks.until((got) => got.filter((r) => r.id === eventId).length === 2);
  });

  it('refuses a 17th endpoint, an endpoint or event of another merchant, and a URL that is no http(s) URL', async () => {
    const { owner } = await merchant();
    const other = await merchant();
    const hooks = await receiver();
    const created = await Promise.all(
      Array.from({ length: 16 }, () => dashboard.as(owner, 'POST', '/webhook-endpoints', { url: hooks.url, enabledEvents: ['*'] })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(16).fill(201));
    expectErrorBody(await dashboard.as(owner, 'POST', '/webhook-endpoints', { url: hooks.url, enabledEvents: ['*'] }), 409, 'webhook_endpoint_limit');
    const theirs = created[0].body.response.webhookEndpointId;
    expectErrorBody(await dashboard.as(other.owner, 'GET', `/webhook-endpoints/${theirs}`), 404, 'resource_not_found');
    expectErrorBody(await dashboard.as(other.owner, 'POST', `/webhook-endpoints/${theirs}/test`), 404, 'resource_not_found');
    expectErrorBody(
      await dashboard.as(other.owner, 'POST', '/webhook-endpoints', { url: 'ftp://example.com/x', enabledEvents: ['*'] }),
      400,
      'webhook_url_not_allowed',
    );
    expectErrorBody(
      await dashboard.as(other.owner, 'POST', '/webhook-endpoints', { url: hooks.url, enabledEvents: ['no.such_type'] }),
      400,
      'validation_failed',
    );
    expectErrorBody(await dashboard.as(other.owner, 'POST', '/webhook-endpoints', { enabledEvents: ['*'] }), 400, 'validation_failed');
    expectErrorBody(await dashboard.as(other.owner, 'POST', '/webhook-endpoints', { url: hooks.url }), 400, 'validation_failed');
    // Resend and recover without what they require: 400, and nothing sent.
    const tested = await dashboard.as(owner, 'POST', `/webhook-endpoints/${theirs}/test`);
    expect(tested.status).toBe(202);
    const [sent] = await hooks.until((got) => got.length >= 1);
    expectErrorBody(await dashboard.as(owner, 'POST', `/events/${sent.id}/resend`, {}), 400, 'validation_failed');
    expectErrorBody(await dashboard.as(owner, 'POST', `/webhook-endpoints/${theirs}/recover`, {}), 400, 'validation_failed');
    expectErrorBody(await dashboard.as(owner, 'POST', `/webhook-endpoints/${theirs}/recover`, { since: 'yesterday' }), 400, 'validation_failed');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(hooks.of(sent.id)).toHaveLength(1);
  });
});
