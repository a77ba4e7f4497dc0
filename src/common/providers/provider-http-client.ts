import CircuitBreaker from 'opossum';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/**
 * A failure talking to a third party. `retryable` failures (timeouts, network errors, 5xx, an
 * open circuit, an answer we cannot trust) may succeed later; others (4xx) will not.
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

export interface ProviderRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Budget of each attempt. */
  timeoutMs: number;
  /** Further attempts after the first, with exponential backoff, for retryable failures only. */
  retries: number;
}

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
 * HTTP to one provider: per-attempt timeouts, retries with backoff on retryable failures only,
 * and a circuit breaker so an outage fails fast instead of piling up waiting requests.
 */
export class ProviderHttpClient {
  private readonly breaker: CircuitBreaker<[ProviderRequest], ProviderResponse>;
  private readonly backoffMs: number;

  constructor(private readonly options: ProviderClientOptions) {
    this.backoffMs = options.backoffMs ?? 200;
    this.breaker = new CircuitBreaker((request: ProviderRequest) => this.send(request), {
      name: options.name,
      timeout: false, // each attempt has its own AbortSignal timeout
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      rollingCountTimeout: 10_000,
      resetTimeout: options.resetTimeoutMs ?? 5_000,
      // Only failures of the provider open the circuit; a 4xx is our request's fault.
      errorFilter: (err: unknown) => err instanceof ProviderError && !err.retryable,
    });
  }

  async request(request: ProviderRequest): Promise<ProviderResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.breaker.fire(request);
      } catch (err) {
        const failure = this.toProviderError(err);
        if (!failure.retryable || attempt >= request.retries || this.breaker.opened) throw failure;
        const delay = this.backoffMs * 2 ** attempt;
        await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay * 0.2));
      }
    }
  }

  shutdown(): void {
    this.breaker.shutdown();
  }

  private async send(request: ProviderRequest): Promise<ProviderResponse> {
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}${request.path}`, {
        method: request.method,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(request.timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw new ProviderError(`${this.options.name}: ${timedOut ? `timed out after ${request.timeoutMs} ms` : 'unreachable'}`, true);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (response.status >= 500 || response.status === 429) {
      throw new ProviderError(`${this.options.name}: answered ${response.status}`, true, response.status);
    }
    if (response.status >= 400) {
      throw new ProviderError(`${this.options.name}: refused the request (${response.status})`, false, response.status);
    }
    return { status: response.status, body };
  }

  private toProviderError(err: unknown): ProviderError {
    if (err instanceof ProviderError) return err;
    if ((err as { code?: string }).code === 'EOPENBREAKER') {
      return new ProviderError(`${this.options.name}: circuit open after repeated failures`, true);
    }
    return new ProviderError(`${this.options.name}: ${(err as Error).message}`, true);
  }
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
