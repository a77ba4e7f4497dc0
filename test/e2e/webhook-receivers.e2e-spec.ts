import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../support/free-port';
import { createIntent, fundIntent, MoneyStack, post, startMoneyStack } from '../support/money-stack';
import { eventually } from '../support/poll';
import { allEvents, subscribe } from '../support/webhooks';

const EXAMPLES = join(__dirname, '..', '..', 'docs', 'examples');

/**
 * The receivers docs/api.md shows, run as written (`node docs/examples/…`) against real
 * deliveries from the worker: each verifies the signature over the raw body, handles each
 * webhook-id once, drops a state older than one it has, and answers at once.
 */
describe('The documented receivers', () => {
  let stack: MoneyStack;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'receivers' });
  });

  afterAll(() => stack?.close());

  describe.each(['fastify', 'express'])('%s', (framework) => {
    let receiver: ChildProcess;
    let output = '';
    let url: string;
    let apiKey: string;
    let secret: string;

    beforeAll(async () => {
      const merchant = await stack.t.createMerchant();
      apiKey = merchant.apiKey;
      const port = await freePort();
      url = `http://127.0.0.1:${port}/webhooks`;
      ({ secret } = await subscribe(stack.t, stack.pg, merchant.merchantId, url));
      receiver = spawn(process.execPath, [join(EXAMPLES, `webhook-receiver-${framework}.mjs`)], {
        env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      receiver.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      receiver.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await eventually(
        () => Promise.resolve(output),
        (text) => text.includes('listening'),
        10_000,
        50,
      );
    });

    afterAll(() => {
      receiver?.kill();
    });

    const lines = () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);

    it('handles each event once, in its newest state, and refuses what is not signed with the secret', async () => {
      const intent = await createIntent(stack.t, apiKey);
      await fundIntent(stack.t, apiKey, intent.paymentIntentId, {}, (i) => i.status === 'funds_received');
      expect((await post(stack.t, apiKey, `/api/merchant/payment-intents/${intent.paymentIntentId}/confirm`, {})).status).toBe(200);
      const events = await allEvents(stack.t, apiKey);
      expect(events.map((e) => e.type)).toEqual(['payment_intent.created', 'payment_intent.funds_received', 'payment_intent.succeeded']);
      // Each event is handled, or dropped as older than a state already handled: deliveries to one
      // endpoint run side by side, so a later state may land first. The newest is always handled.
      const seen = await eventually(
        () => Promise.resolve(lines().filter((line) => 'handled' in line || 'stale' in line)),
        (found) => found.length === 3,
        15_000,
        50,
      );
      expect(seen.map((line) => line.handled ?? line.stale).sort()).toEqual(events.map((e) => e.eventId).sort());
      expect(seen.filter((line) => line.handled === events[2].eventId)).toHaveLength(1);

      // The same event delivered again (as a resend makes it): recognised by its webhook-id, not handled twice.
      await stack.pg.query(
        `UPDATE webhook_deliveries SET state = 'pending', round = round + 1, attempts = 0, next_attempt_at = now(), leased_until = NULL WHERE event_id = $1`,
        [events[2].eventId],
      );
      await eventually(
        () => Promise.resolve(lines()),
        (found) => found.some((line) => line.duplicate === events[2].eventId),
        15_000,
        50,
      );

      // An older state of the intent arriving last, properly signed: dropped by its version.
      const late = { ...events[0], eventId: 'evt_late000000000000000000000' };
      const body = JSON.stringify(late);
      const now = new Date();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': late.eventId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(late.eventId, now, body),
      };
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
      await eventually(
        () => Promise.resolve(lines()),
        (found) => found.some((line) => line.stale === late.eventId),
        5_000,
        50,
      );

      // The same body with a signature that is not the secret's: refused before anything is done.
      const forged = { ...headers, 'webhook-id': 'evt_forged0000000000000000000', 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
      expect((await fetch(url, { method: 'POST', headers: forged, body })).status).toBe(400);
      expect(lines().some((line) => Object.values(line).includes('evt_forged0000000000000000000'))).toBe(false);
    });
  });
});
