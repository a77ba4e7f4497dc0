import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isRecord, ValidationIssue } from './validation';

/**
 * Signed event callbacks, shared by the sandbox rails (bank, bridge, payout). See the "Events"
 * section of the bank rail in sandbox/README.md: every rail signs and retries the same way, each
 * with its own secret.
 */

export const RAIL_EVENT_ID_HEADER = 'x-rail-event-id';
export const RAIL_SIGNATURE_HEADER = 'x-rail-signature';
export const MAX_DELIVERY_ATTEMPTS = 8;
export const DELIVERY_TIMEOUT_MS = 5_000;

/** An event as listed and posted: `{ id, type, created_at, data }`. */
export interface SandboxEvent<TType extends string = string, T = unknown> {
  id: string;
  type: TType;
  created_at: string;
  data: T;
}

export interface DeliveryRecord {
  event_id: string;
  /** Numbers every POST of that event, automatic retries and `/_sandbox/deliver` re-sends alike. */
  attempt: number;
  /** The callback's HTTP status, or null when it could not be reached or did not answer in time. */
  status: number | null;
  at: string;
}

export interface WebhookState {
  url: string | null;
  drop_next: number;
  deliveries: DeliveryRecord[];
}

/**
 * The `X-Rail-Signature` header value for a body sent at `timestamp` (unix seconds):
 * `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<rawBody>")>`.
 */
export function signRailPayload(secret: string, timestamp: number, rawBody: string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

/** Null when `value` is an absolute http(s) URL, else why not. */
export function callbackUrlProblem(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http or https URL';
  } catch {
    return 'must be an absolute http or https URL';
  }
}

/** Validates a `POST /_sandbox/webhook` body. */
export function parseWebhookPatch(body: unknown): { patch: { url?: string | null; dropNext?: number } } | { issues: ValidationIssue[] } {
  if (body === undefined || body === null) return { patch: {} };
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const patch: { url?: string | null; dropNext?: number } = {};
  for (const key of Object.keys(body)) {
    if (key !== 'url' && key !== 'drop_next') issues.push({ field: key, message: 'unknown setting; expected url or drop_next' });
  }
  const { url, drop_next } = body;
  if (url !== undefined) {
    const problem = url === null ? null : typeof url === 'string' ? callbackUrlProblem(url) : 'must be a URL string or null';
    if (problem === null) patch.url = url as string | null;
    else issues.push({ field: 'url', message: problem });
  }
  if (drop_next !== undefined) {
    if (typeof drop_next === 'number' && Number.isSafeInteger(drop_next) && drop_next >= 0) patch.dropNext = drop_next;
    else issues.push({ field: 'drop_next', message: 'must be a non-negative integer' });
  }
  return issues.length > 0 ? { issues } : { patch };
}

/**
 * Runs `start` once the answer to this request has been written (or the client went away), so
 * a callback never overtakes the answer that caused it nor waits for a slow client.
 */
export function afterAnswer(response: ServerResponse, start: () => void): void {
  if (response.writableFinished || response.destroyed) {
    setImmediate(start);
    return;
  }
  const once = () => {
    response.off('finish', once);
    response.off('close', once);
    setImmediate(start);
  };
  response.once('finish', once);
  response.once('close', once);
}

export interface CallbackSenderOptions {
  secret: string;
  url: string | null;
  retryMs: number;
}

/**
 * Sends events to the callback URL with retries. Owns every timer and in-flight request it
 * starts, so `close()` (and `reset()`) leave nothing running.
 */
export class CallbackSender {
  private url: string | null;
  private dropNext = 0;
  private deliveries: DeliveryRecord[] = [];
  private readonly posts = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  // Bumped by reset and close: work started before then stops instead of recording or retrying.
  private generation = 0;
  private closed = false;

  constructor(private readonly options: CallbackSenderOptions) {
    this.url = options.url;
  }

  get state(): WebhookState {
    return { url: this.url, drop_next: this.dropNext, deliveries: this.deliveries.map((record) => ({ ...record })) };
  }

  get hasUrl(): boolean {
    return this.url !== null;
  }

  configure(patch: { url?: string | null; dropNext?: number }): WebhookState {
    if (patch.url !== undefined) this.url = patch.url;
    if (patch.dropNext !== undefined) this.dropNext = patch.dropNext;
    return this.state;
  }

  /**
   * Decided when the event is created, not when delivery starts, so `drop_next` loses exactly the
   * next N events even if their delivery is still waiting for an answer to be sent.
   */
  claim(): boolean {
    if (this.url === null) return false;
    if (this.dropNext > 0) {
      this.dropNext -= 1;
      return false;
    }
    return true;
  }

  /** Starts delivering a claimed event: up to MAX_DELIVERY_ATTEMPTS posts with exponential backoff. */
  deliver(event: SandboxEvent): void {
    if (this.closed) return;
    void this.attempt(event, 1, this.generation);
  }

  /** One post of `event` right now, outside the retry schedule; the callback's status or null. */
  async sendOnce(event: SandboxEvent): Promise<number | null> {
    const outcome = await this.post(event);
    return outcome === 'cancelled' ? null : outcome;
  }

  reset(): void {
    this.cancelAll();
    this.url = this.options.url;
    this.dropNext = 0;
    this.deliveries = [];
    this.posts.clear();
  }

  close(): void {
    this.closed = true;
    this.cancelAll();
  }

  private cancelAll(): void {
    this.generation += 1;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }

  private async attempt(event: SandboxEvent, attempt: number, generation: number): Promise<void> {
    if (generation !== this.generation) return;
    const outcome = await this.post(event);
    if (outcome === 'cancelled' || generation !== this.generation) return;
    if (outcome !== null && outcome >= 200 && outcome < 300) return;
    if (attempt >= MAX_DELIVERY_ATTEMPTS) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.attempt(event, attempt + 1, generation);
      },
      this.options.retryMs * 2 ** (attempt - 1),
    );
    this.timers.add(timer);
  }

  /** 'cancelled' when there is no URL any more or reset/close cut the post short (nothing recorded). */
  private async post(event: SandboxEvent): Promise<number | null | 'cancelled'> {
    const url = this.url;
    if (url === null || this.closed) return 'cancelled';
    const generation = this.generation;
    const sequence = (this.posts.get(event.id) ?? 0) + 1;
    this.posts.set(event.id, sequence);
    const at = new Date();
    const rawBody = JSON.stringify(event);
    const controller = new AbortController();
    this.inFlight.add(controller);
    let status: number | null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [RAIL_EVENT_ID_HEADER]: event.id,
          [RAIL_SIGNATURE_HEADER]: signRailPayload(this.options.secret, Math.floor(at.getTime() / 1000), rawBody),
        },
        body: rawBody,
        // A redirect is an answer that is not 2xx, like any other; following it would post elsewhere.
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      status = response.status;
      // Only the status matters; cancelling frees the connection without waiting for the body.
      await response.body?.cancel().catch(() => undefined);
    } catch {
      status = null;
    } finally {
      this.inFlight.delete(controller);
    }
    if (controller.signal.aborted || generation !== this.generation) return 'cancelled';
    this.deliveries.push({ event_id: event.id, attempt: sequence, status, at: at.toISOString() });
    return status;
  }
}
