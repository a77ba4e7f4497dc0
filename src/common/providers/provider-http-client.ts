import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitBreakerPolicy,
  CircuitState,
  ExponentialBackoff,
  handleWhen,
  retry,
  SamplingBreaker,
  TaskCancelledError,
  timeout,
  TimeoutStrategy,
  wrap,
} from 'cockatiel';
import { Readable } from 'node:stream';
import { Dispatcher, request as httpRequest } from 'undici';

/**
 * A failure talking to a third party. `retryable` failures (timeouts, network errors, 5xx, 429,
 * an open circuit, an answer we cannot trust) may succeed later; others (4xx) will not.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The budget of one call to a provider, as every adapter method takes it. */
export interface CallOptions {
  /** Budget of each attempt, from sending the request to reading the whole response. */
  timeoutMs: number;
  /** Further attempts after the first, with exponential backoff, for retryable failures only. */
  retries: number;
}

interface ProviderRequestBase extends CallOptions {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
}

interface JsonProviderRequest extends ProviderRequestBase {
  /** Sent as JSON. */
  body?: unknown;
  stream?: undefined;
  contentType?: undefined;
  contentLength?: undefined;
}

interface StreamedProviderRequest extends ProviderRequestBase {
  body?: undefined;
  /**
   * Opens the body afresh for each attempt: a body half sent by a failed attempt cannot be
   * rewound. It is sent as it is read, never held whole in memory, and closed after each attempt
   * even when the provider answered without reading it all. An error it throws is not the
   * provider's failure: it is rethrown as is, neither retried nor counted against the circuit.
   */
  stream: () => AsyncIterable<Uint8Array>;
  /** Defaults to `application/octet-stream`. */
  contentType?: string;
  /**
   * Sent as `content-length` instead of chunked encoding, for providers that require it; a body
   * that turns out longer or shorter fails the attempt rather than reaching the provider.
   */
  contentLength?: number;
}

export type ProviderRequest = JsonProviderRequest | StreamedProviderRequest;

/** The circuit is open: the provider failed too often of late, and the call was not even tried. */
export class CircuitOpenError extends ProviderError {
  constructor(providerName: string) {
    super(`${providerName}: circuit open after repeated failures`, true);
  }
}

/** A circuit's state as the operator port reports it. */
export type CircuitStateName = 'closed' | 'open' | 'half_open';

export interface ProviderResponse {
  status: number;
  body: unknown;
}

export interface ProviderClientOptions {
  name: string;
  baseUrl: string;
  apiKey: string;
  /** Base of the exponential backoff between attempts. */
  backoffMs?: number;
  /** How long the circuit stays open before one trial request is let through. */
  resetTimeoutMs?: number;
}

/**
 * A failure of the provider: those are retried and open the circuit; a 4xx is our request's fault.
 * (`instanceof`, not cockatiel 3.2.1's `isTaskCancelledError`, which tests the wrong property.)
 */
function isProviderFailure(err: unknown): boolean {
  return err instanceof TaskCancelledError || (err instanceof ProviderError && err.retryable);
}

/** Retries of retryable failures, the provider's breaker, and a timeout of each attempt. */
function attemptPolicy(breaker: CircuitBreakerPolicy, retries: number, timeoutMs: number, backoffMs: number) {
  // Once the circuit has opened, waiting to retry would only end in a fast failure anyway.
  const retrying = retry(
    handleWhen((err) => isProviderFailure(err) && breaker.state !== CircuitState.Open),
    { maxAttempts: retries, backoff: new ExponentialBackoff({ initialDelay: backoffMs }) },
  );
  // Aggressive, so the attempt ends at its deadline whatever it was doing (an abort while reading the
  // answer would otherwise look like an empty body); its signal also cancels the request itself.
  // Not aborted once the attempt returns: it has read the whole answer and closed its body by then,
  // and an abort builds a DOMException, stack and all, on every call.
  const perAttempt = timeout(timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false });
  return wrap(retrying, breaker, perAttempt);
}

type AttemptPolicy = ReturnType<typeof attemptPolicy>;

/**
 * HTTP to one provider: per-attempt timeouts, retries with backoff on retryable failures only,
 * and a circuit breaker so an outage fails fast instead of piling up waiting requests.
 */
export class ProviderHttpClient {
  /** Shared by all requests: an outage seen by one caller fails the others fast too. */
  private readonly breaker: CircuitBreakerPolicy;
  private readonly backoffMs: number;
  private readonly policies = new Map<string, AttemptPolicy>();

  constructor(private readonly options: ProviderClientOptions) {
    this.backoffMs = options.backoffMs ?? 200;
    this.breaker = circuitBreaker(handleWhen(isProviderFailure), {
      halfOpenAfter: options.resetTimeoutMs ?? 5_000,
      // Opens when over half of the calls of the last 10 s failed, once there were at least 5.
      breaker: new SamplingBreaker({ threshold: 0.5, duration: 10_000, minimumRps: 0.5 }),
    });
  }

  /** Whether calls go through (closed), fail fast (open), or one trial call is under way (half open). */
  get circuit(): CircuitStateName {
    const state = this.breaker.state;
    return state === CircuitState.Closed ? 'closed' : state === CircuitState.HalfOpen ? 'half_open' : 'open';
  }

  async request(request: ProviderRequest): Promise<ProviderResponse> {
    try {
      // A signal of its own: cockatiel's default is one shared by every call, and each call in
      // flight adds its listeners to it (a MaxListenersExceededWarning past ten at once).
      return await this.policyFor(request).execute(({ signal }) => this.send(request, signal), new AbortController().signal);
    } catch (err) {
      throw this.toProviderError(err, request);
    }
  }

  /** The policy of a budget, built once (the adapters use a few budgets): cockatiel's policies keep nothing of an execution. */
  private policyFor({ retries, timeoutMs }: CallOptions): AttemptPolicy {
    const key = `${retries}/${timeoutMs}`;
    let policy = this.policies.get(key);
    if (!policy) this.policies.set(key, (policy = attemptPolicy(this.breaker, retries, timeoutMs, this.backoffMs)));
    return policy;
  }

  private async send(request: ProviderRequest, signal: AbortSignal): Promise<ProviderResponse> {
    const body = request.stream ? new AttemptBody(request.stream()) : undefined;
    try {
      return await this.exchange(request, body, signal);
    } finally {
      // The client leaves open a body the provider did not read to the end (an early 4xx, an abort),
      // and with it whatever feeds it (a database cursor). Not before the answer is complete, though:
      // a provider may answer while still reading, and a body ended early would look whole to it.
      body?.close();
    }
  }

  /**
   * One attempt with undici's `request`, not `fetch`: the same HTTP client underneath without the
   * WHATWG streams, Request/Response objects and per-call signal plumbing, which cost a payment
   * intent's creation (one rail call) a third of its CPU.
   */
  private async exchange(request: ProviderRequest, body: AttemptBody | undefined, signal: AbortSignal): Promise<ProviderResponse> {
    let response: Dispatcher.ResponseData;
    try {
      response = await httpRequest(`${this.options.baseUrl}${request.path}`, {
        method: request.method,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(request.stream ? { 'content-type': request.contentType ?? 'application/octet-stream' } : {}),
          ...(request.contentLength === undefined ? {} : { 'content-length': String(request.contentLength) }),
          ...request.headers,
        },
        // One piece read ahead at most: the body is sent as it is read, never gathered in memory.
        body: body ? Readable.from(body, { objectMode: false, highWaterMark: 1 }) : request.body === undefined ? undefined : JSON.stringify(request.body),
        // Providers do not redirect API calls, and following one would mean sending a streamed body again.
        maxRedirections: 0,
        signal,
      });
    } catch (err) {
      if (body?.failure) throw body.failure.error;
      if (errorCode(err) === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') {
        // Sending the same stream again would fail the same way: the caller's contentLength is wrong.
        throw new ProviderError(`${this.options.name}: the streamed body is not the ${request.contentLength} bytes announced`, false);
      }
      const timedOut = signal.aborted;
      throw new ProviderError(
        `${this.options.name}: ${timedOut ? `timed out after ${request.timeoutMs} ms` : `unreachable (${errorCode(err) ?? (err as Error).message})`}`,
        true,
      );
    }
    let parsed: unknown;
    try {
      parsed = await response.body.json();
    } catch {
      parsed = undefined;
    }
    const status = response.statusCode;
    if (status >= 500 || status === 429) {
      throw new ProviderError(`${this.options.name}: answered ${status}`, true, status);
    }
    if (status >= 300) {
      throw new ProviderError(`${this.options.name}: refused the request (${status})`, false, status);
    }
    return { status, body: parsed };
  }

  private toProviderError(err: unknown, request: ProviderRequest): unknown {
    if (err instanceof ProviderError) return err;
    if (err instanceof BrokenCircuitError) {
      return new CircuitOpenError(this.options.name);
    }
    if (err instanceof TaskCancelledError) {
      return new ProviderError(`${this.options.name}: timed out after ${request.timeoutMs} ms`, true);
    }
    // Otherwise the caller's own stream failed: its error means more to the caller than ours would.
    return err;
  }
}

/** One attempt's streamed body, told apart from the provider when it fails, and closable. */
class AttemptBody implements AsyncIterable<Uint8Array> {
  failure?: { error: unknown };
  private readonly iterator: AsyncIterator<Uint8Array>;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: async () => {
        try {
          return await this.iterator.next();
        } catch (error) {
          this.failure = { error };
          throw error;
        }
      },
      // The client ends the body this way when it gives up on it (an abort): the source must hear of it.
      return: async () => {
        await this.iterator.return?.();
        return { done: true, value: undefined };
      },
    };
  }

  /** Not awaited: a source stuck on a slow read must not hold up the retry or the caller. */
  close(): void {
    void this.iterator.return?.().catch(() => undefined);
  }
}

/** What went wrong: undici's own code (`UND_ERR_…`), or the socket's (`ECONNREFUSED`, …). */
export function errorCode(err: unknown): string | undefined {
  const { code, cause } = err as { code?: unknown; cause?: { code?: unknown } };
  return (typeof code === 'string' ? code : undefined) ?? (typeof cause?.code === 'string' ? cause.code : undefined);
}

/** Nothing from a provider is used before it passes its response schema. */
export function parseProviderBody<T extends object>(providerName: string, cls: new () => T, body: unknown): T {
  if (typeof body !== 'object' || body === null) {
    throw new ProviderError(`${providerName}: answered with an unexpected body`, true);
  }
  const instance = plainToInstance(cls, body, { excludeExtraneousValues: false });
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new ProviderError(`${providerName}: answered with an invalid ${cls.name} (${errors.map((e) => e.property).join(', ')})`, true);
  }
  return instance;
}
