// A webhook receiver with Fastify: verifies each delivery with the Standard Webhooks library,
// handles each event once, ignores a state older than one it already has, and answers at once.
// Run: WEBHOOK_SECRET=whsec_… PORT=4000 node docs/examples/webhook-receiver-fastify.mjs
import Fastify from 'fastify';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
// In production both live in your database: a unique webhook-id column, and each object's version.
const handled = new Set();
const versions = new Map();

const app = Fastify();
// The signature covers the body exactly as sent: keep it as text, never parse and re-serialise it.
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

app.post('/webhooks', async (request, reply) => {
  let event;
  try {
    event = webhook.verify(request.body, request.headers);
  } catch {
    return reply.code(400).send();
  }
  const id = request.headers['webhook-id'];
  if (handled.has(id)) {
    console.log(JSON.stringify({ duplicate: id }));
    return reply.code(204).send();
  }
  handled.add(id);
  // Answer first (within 15 s, or the delivery counts as failed); do the work after.
  setImmediate(() => handle(event));
  return reply.code(204).send();
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

await app.listen({ port: Number(process.env.PORT ?? 4000), host: '127.0.0.1' });
console.log(JSON.stringify({ listening: Number(process.env.PORT ?? 4000) }));
