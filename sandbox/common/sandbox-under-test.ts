import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CallbackReceiver, startCallbackReceiver } from './callback-receiver';
import { SANDBOX_HOST } from './run';

/**
 * Test helper for the specs of the sandboxes and of the adapters that talk to them: one sandbox
 * server, built afresh with options, driven by `inject` or over a real socket, with the callback
 * receivers a test starts closed along with it. Used by specs only; they register the jest hooks
 * themselves (this file is built with the sandboxes, which do not know jest).
 */

/** A parsed JSON answer: specs read into it freely, as they do `inject`'s `json()`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Headers = Record<string, string>;

export class SandboxUnderTest<TOptions> {
  private current: FastifyInstance | undefined;
  private readonly receivers: CallbackReceiver[] = [];
  private readonly auth: Headers;

  /** `build` makes the server with `options` over the spec's defaults; `/v1` calls carry `apiKey`. */
  constructor(
    private readonly build: (options: Partial<TOptions>) => FastifyInstance,
    apiKey: string,
  ) {
    this.auth = { authorization: `Bearer ${apiKey}` };
  }

  get app(): FastifyInstance {
    if (this.current === undefined) throw new Error('SandboxUnderTest: start() it first');
    return this.current;
  }

  // Arrow properties, so a spec can destructure the ones it uses.

  start = async (options: Partial<TOptions> = {}): Promise<void> => {
    this.current = this.build(options);
    await this.current.ready();
  };

  restart = async (options: Partial<TOptions> = {}): Promise<void> => {
    await this.app.close();
    await this.start(options);
  };

  /** Listens on 127.0.0.1 at a free port; answers the base URL. */
  listen = async (): Promise<string> => {
    await this.app.listen({ host: SANDBOX_HOST, port: 0 });
    return `http://${SANDBOX_HOST}:${(this.app.server.address() as AddressInfo).port}`;
  };

  /** Closes the server and the receivers. A connection a client abandoned would otherwise hold close() until the client drops it. */
  stop = async (): Promise<void> => {
    this.current?.server.closeAllConnections();
    await this.current?.close();
    await Promise.all(this.receivers.splice(0).map((receiver) => receiver.close()));
  };

  /** A callback endpoint answering `statuses` in turn, then 200; closed by `stop`. */
  receiver = async (statuses: number[] = []): Promise<CallbackReceiver> => {
    const started = await startCallbackReceiver(statuses);
    this.receivers.push(started);
    return started;
  };

  get = (url: string, headers: Headers = this.auth): Promise<LightMyRequestResponse> => this.app.inject({ method: 'GET', url, headers });

  /** A `/v1` POST with an `Idempotency-Key` (none when null). */
  post = (url: string, body: unknown, idempotencyKey: string | null, headers: Headers = this.auth): Promise<LightMyRequestResponse> =>
    this.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
      payload: body as Record<string, unknown>,
    });

  /** A `/_sandbox` route (no auth). */
  control = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    this.app.inject({ method, url, payload });

  state = async (url: string): Promise<Json> => (await this.control('GET', url)).json<Json>();

  faults = (faults: Record<string, unknown>): Promise<LightMyRequestResponse> => this.control('POST', '/_sandbox/faults', faults);

  reset = (): Promise<LightMyRequestResponse> => this.control('POST', '/_sandbox/reset');

  /** The events `GET /v1/events` lists (the first page). */
  events = async (): Promise<Json[]> => (await this.get('/v1/events')).json<{ events: Json[] }>().events;
}
