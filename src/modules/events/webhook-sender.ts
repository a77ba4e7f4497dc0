import { Agent, Dispatcher, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { errorCode } from '../../common/providers/provider-http-client';
import { ADDRESS_NOT_ALLOWED, WebhookUrlPolicy } from './webhook-url-policy';

/** How much of an answer is kept for the dashboard. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** One request of a delivery: the event's id, its body as sent, and the secrets that sign it (the newest first). */
export interface WebhookRequest {
  url: string;
  eventId: string;
  body: string;
  secrets: string[];
}

export interface WebhookAnswer {
  statusCode: number | null;
  durationMs: number;
  /** The first `RESPONSE_EXCERPT_BYTES` of the answer, as text. */
  responseBody: string;
  /** Why no answer counts (none came, or it came too late); null when one did. */
  error: string | null;
  /** A `Retry-After` the endpoint asked for, in ms. */
  retryAfterMs: number | null;
}

/**
 * The signature header of Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under
 * each secret, space-separated, computed by the scheme's own library.
 */
export function signatureHeader(secrets: string[], eventId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, timestamp, body)).join(' ');
}

/** `Retry-After` as ms: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Sends events to merchants' endpoints: one POST, signed, within `timeoutMs` from the first byte
 * sent to the last byte read (a receiver that drips its answer is cut off like one that never
 * answers), redirects never followed, at most `RESPONSE_EXCERPT_BYTES` of the answer read. The
 * sockets resolve hosts through the URL policy, so under the strict one they only ever connect
 * to public addresses.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly policy: WebhookUrlPolicy,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({
      connect: { lookup: policy.connectLookup, timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  async send(webhook: WebhookRequest, now = new Date()): Promise<WebhookAnswer> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const url = new URL(webhook.url);
    if (!this.policy.allowsLiteralHost(url)) return failed(took(), 'the address is not one a webhook may reach');
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'merchant-api-webhooks/1',
          'webhook-id': webhook.eventId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signatureHeader(webhook.secrets, webhook.eventId, now, webhook.body),
        },
        body: webhook.body,
        maxRedirections: 0,
        signal,
      });
    } catch (err) {
      const code = errorCode(err);
      if (code === ADDRESS_NOT_ALLOWED) return failed(took(), `${url.hostname} resolves to no address a webhook may reach`);
      return failed(took(), signal.aborted ? `no answer within ${this.timeoutMs} ms` : `unreachable (${code ?? (err as Error).message})`);
    }
    let excerpt = Buffer.alloc(0);
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        excerpt = Buffer.concat([excerpt, chunk]);
        if (excerpt.length >= RESPONSE_EXCERPT_BYTES) break;
      }
    } catch (err) {
      const answered = { statusCode: response.statusCode, durationMs: took(), responseBody: text(excerpt), retryAfterMs: null };
      return {
        ...answered,
        error: signal.aborted ? `the answer did not end within ${this.timeoutMs} ms` : `the answer broke off (${errorCode(err) ?? 'error'})`,
      };
    } finally {
      response.body.destroy();
    }
    return {
      statusCode: response.statusCode,
      durationMs: took(),
      responseBody: text(excerpt),
      error: null,
      retryAfterMs: retryAfterMs(response.headers['retry-after']),
    };
  }

  /** Ends every connection, aborting requests under way. */
  destroy(): Promise<void> {
    return this.agent.destroy();
  }
}

function failed(durationMs: number, error: string): WebhookAnswer {
  return { statusCode: null, durationMs, responseBody: '', error, retryAfterMs: null };
}

function text(bytes: Buffer): string {
  // NUL cannot be stored in a text column; the excerpt is for reading, not for replay.
  return bytes.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replace(/\0/g, '\uFFFD');
}
