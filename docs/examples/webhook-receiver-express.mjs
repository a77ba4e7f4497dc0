// A webhook receiver with Express: verifies each delivery with the Standard Webhooks library,
// handles each event once, ignores a state older than one it already has, and answers at once.
// Run: WEBHOOK_SECRET=whsec_… PORT=4000 node docs/examples/webhook-receiver-express.mjs
import express from 'express';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
// In production both live in your database: a unique webhook-id column, and each object's version.
const handled = new Set();
const versions = new Map();

const app = express();

// express.raw, not express.json: the signature covers the body exactly as sent.
app.post('/webhooks', express.raw({ type: 'application/json' }), (request, response) => {
  let event;
  try {
    event = webhook.verify(request.body, request.headers);
  } catch {
    return response.status(400).end();
  }
  const id = request.get('webhook-id');
  if (handled.has(id)) {
    console.log(JSON.stringify({ duplicate: id }));
    return response.status(204).end();
  }
  handled.add(id);
  // Answer first (within 15 s, or the delivery counts as failed); do the work after.
  response.status(204).end();
  setImmediate(() => handle(event));
});

function handle(event) {
  const object = event.data.object;
  const objectId =
    object.paymentIntentId ??
    object.withdrawalId ??
    object.intentId ??
    object.poboUserId ??
    object.vaultTransferId ??
    object.vaultTransactionId ??
    object.webhookEndpointId;
  // Deliveries can arrive out of order: keep only the newest state of each object.
  if ((versions.get(objectId) ?? -1) >= event.objectVersion) {
    console.log(JSON.stringify({ stale: event.eventId }));
    return;
  }
  versions.set(objectId, event.objectVersion);
  console.log(JSON.stringify({ handled: event.eventId, type: event.type, objectId, status: object.status ?? null }));
}

const port = Number(process.env.PORT ?? 4000);
app.listen(port, '127.0.0.1', () => console.log(JSON.stringify({ listening: port })));
