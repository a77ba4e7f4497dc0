import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { newId } from '../../src/common/ids/ids';
import { webhookSecrets } from '../../src/modules/events/webhook-endpoints.service';
import { http, TestApp } from './test-app';
import type { ReceivedWebhook, WebhookReceiver } from './webhook-receiver';

/**
 * Subscribes the merchant to every event at `url`, written straight into the database (sealed as
 * the service seals secrets), for suites about what is sent rather than about setting it up (the
 * webhooks suite sets endpoints up through the dashboard). Answers the signing secret.
 */
export async function subscribe(
  t: Pick<TestApp, 'config'>,
  pg: Client,
  merchantId: string,
  url: string,
): Promise<{ webhookEndpointId: string; secret: string }> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const webhookEndpointId = newId('we');
  await pg.query(`INSERT INTO webhook_endpoints (id, merchant_id, url, enabled_events, sealed_secret) VALUES ($1, $2, $3, '{*}', $4)`, [
    webhookEndpointId,
    merchantId,
    url,
    webhookSecrets(t.config).seal(secret),
  ]);
  return { webhookEndpointId, secret };
}

/** Whether the request's signature verifies with `secret`, by the Standard Webhooks library. */
export function verifies(secret: string, request: ReceivedWebhook): boolean {
  try {
    new Webhook(secret).verify(request.raw, {
      'webhook-id': request.id,
      'webhook-timestamp': request.timestamp,
      'webhook-signature': request.signature,
    });
    return true;
  } catch {
    return false;
  }
}

/** Every event of the merchant, oldest first, following the list's pages. */
export async function allEvents(t: Pick<TestApp, 'baseUrl'>, apiKey: string): Promise<any[]> {
  const events: any[] = [];
  let path = '/api/merchant/events?limit=100';
  for (;;) {
    const page = await http(t.baseUrl, 'GET', path, { apiKey });
    events.push(...page.body.response);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    if (!next) return events.reverse();
    path = `${new URL(next).pathname}${new URL(next).search}`;
  }
}

/**
 * Each of the merchant's events reached the receiver exactly once (one request per `webhook-id`),
 * signed with `secret`, its body the event exactly as the API answers it.
 */
export async function expectEachDeliveredOnce(t: Pick<TestApp, 'baseUrl'>, apiKey: string, receiver: WebhookReceiver, secret: string): Promise<any[]> {
  const events = await allEvents(t, apiKey);
  await receiver.until((got) => events.every((event) => got.some((request) => request.id === event.eventId)), 20_000);
  for (const event of events) {
    const requests = receiver.of(event.eventId);
    expect([event.type, requests.length]).toEqual([event.type, 1]);
    expect(verifies(secret, requests[0])).toBe(true);
    expect(requests[0].body).toEqual(event);
  }
  return events;
}
