import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAnswer, CallbackSender, parseWebhookPatch, SandboxEvent } from './callbacks';

/**
 * The events of a sandbox rail (the bank rail's and the cross-border rails'): kept in order,
 * listed by `GET /v1/events`, posted as signed callbacks, and inspected or re-sent through
 * `/_sandbox/{events,webhook,deliver}` (see the "Events" section of the bank rail in sandbox/README.md).
 */

export interface EventLogOptions {
  /** HMAC key of the `X-Rail-Signature` header. */
  secret: string;
  /** Where events are posted; none means they are only listed. */
  url: string | null;
  /** First wait between callback attempts; it doubles after each failed attempt. */
  retryMs: number;
}

export const newSandboxId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

export class EventLog<TType extends string> {
  private readonly events: SandboxEvent<TType>[] = [];
  private readonly positions = new Map<string, number>();
  private readonly callbacks: CallbackSender;

  constructor(options: EventLogOptions) {
    this.callbacks = new CallbackSender(options);
  }

  get all(): SandboxEvent<TType>[] {
    return [...this.events];
  }

  /**
   * Records an event (listed at once) and, unless dropped, delivers it: after `answered`'s answer
   * when a request caused it, right away when a timer did.
   */
  emit<T>(type: TType, data: T, answered?: ServerResponse): SandboxEvent<TType, T> {
    const event: SandboxEvent<TType, T> = { id: newSandboxId('evt'), type, created_at: new Date().toISOString(), data };
    this.positions.set(event.id, this.events.length);
    this.events.push(event);
    if (this.callbacks.claim()) {
      if (answered) afterAnswer(answered, () => this.callbacks.deliver(event));
      else this.callbacks.deliver(event);
    }
    return event;
  }

  reset(): void {
    this.callbacks.reset();
    this.events.length = 0;
    this.positions.clear();
  }

  close(): void {
    this.callbacks.close();
  }

  /** `GET /v1/events?after=<event id>&limit=<1..100>`. */
  registerListRoute(app: FastifyInstance): void {
    app.get<{ Querystring: Record<string, unknown> }>('/v1/events', async (request, reply) => {
      const { after, limit: rawLimit } = request.query;
      let limit = 100;
      if (rawLimit !== undefined) {
        if (typeof rawLimit !== 'string' || !/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) {
          return reply.code(400).send({ error: 'bad_request', message: 'limit must be an integer from 1 to 100' });
        }
        limit = Number(rawLimit);
      }
      let start = 0;
      if (after !== undefined) {
        const position = typeof after === 'string' ? this.positions.get(after) : undefined;
        if (position === undefined) return reply.code(400).send({ error: 'bad_request', message: 'after is not the id of an event' });
        start = position + 1;
      }
      return { events: this.events.slice(start, start + limit), has_more: this.events.length > start + limit };
    });
  }

  /** `GET /_sandbox/events`, `GET|POST /_sandbox/webhook`, `POST /_sandbox/deliver/:eventId` (call inside `registerControlRoutes`). */
  registerControlRoutes(control: FastifyInstance): void {
    control.get('/_sandbox/events', () => ({ events: this.events }));

    control.get('/_sandbox/webhook', () => this.callbacks.state);

    control.post('/_sandbox/webhook', (request, reply) => {
      const result = parseWebhookPatch(request.body);
      if ('issues' in result) return reply.code(400).send({ error: 'invalid_webhook', details: result.issues });
      return this.callbacks.configure(result.patch);
    });

    control.post<{ Params: { eventId: string } }>('/_sandbox/deliver/:eventId', async (request, reply) => {
      const position = this.positions.get(request.params.eventId);
      if (position === undefined) return reply.code(404).send({ error: 'not_found' });
      if (!this.callbacks.hasUrl) return reply.code(409).send({ error: 'no_callback_url', message: 'set a callback URL with POST /_sandbox/webhook first' });
      return { status: await this.callbacks.sendOnce(this.events[position]) };
    });
  }
}
