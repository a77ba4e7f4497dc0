import { createHash, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRecord, ValidationIssue } from './validation';

/**
 * Fault injection, bearer auth, `/health` and `/_sandbox/{faults,reset}` shared by every sandbox.
 *
 * Faults and auth apply to every request whose path is `/v1` or starts with `/v1/` (unknown
 * `/v1` routes included, so they answer 401 before 404 like a real API); `/health` and
 * `/_sandbox/*` are never affected. Per `/v1` request, in this order:
 *   1. `hang`      the request is never answered; the socket stays open until the client gives up
 *                  (or the server closes, which destroys it). No timer is involved.
 *   2. `latencyMs` wait that long before going on (cleared early if the server closes).
 *   3. `down`      answer 503 `{ "error": "sandbox_fault" }` (does not consume `failNext`).
 *   4. `failNext`  while > 0: decrement it and answer `failStatus` `{ "error": "sandbox_fault" }`.
 *   5. auth        `Authorization: Bearer <apiKey>`, else 401 `{ "error": "unauthorized" }`.
 * Then the route runs, and `answerDelayMs` holds its answer (whatever it is) that long before a
 * byte is sent: the route's effects have happened but the client does not know yet, so a test can
 * drop the client in that window (cleared early if the server closes).
 */

export interface FaultState {
  latencyMs: number;
  failNext: number;
  failStatus: number;
  down: boolean;
  hang: boolean;
  answerDelayMs: number;
}

export const DEFAULT_FAIL_STATUS = 503;
export const MAX_LATENCY_MS = 600_000;
const FAULT_KEYS: ReadonlyArray<keyof FaultState> = ['latencyMs', 'failNext', 'failStatus', 'down', 'hang', 'answerDelayMs'];

export function defaultFaultState(): FaultState {
  return { latencyMs: 0, failNext: 0, failStatus: DEFAULT_FAIL_STATUS, down: false, hang: false, answerDelayMs: 0 };
}

/** Validates a `POST /_sandbox/faults` body: a partial FaultState, nothing else. */
export function parseFaultPatch(body: unknown): { patch: Partial<FaultState> } | { issues: ValidationIssue[] } {
  if (body === undefined || body === null) return { patch: {} };
  if (!isRecord(body)) return { issues: [{ field: '(body)', message: 'must be a JSON object' }] };
  const issues: ValidationIssue[] = [];
  const patch: Partial<FaultState> = {};
  const isInt = (value: unknown, min: number, max: number): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

  for (const key of Object.keys(body)) {
    if (!(FAULT_KEYS as readonly string[]).includes(key)) {
      issues.push({ field: key, message: `unknown fault; expected one of ${FAULT_KEYS.join(', ')}` });
    }
  }
  const { latencyMs, failNext, failStatus, down, hang, answerDelayMs } = body;
  if (latencyMs !== undefined) {
    if (isInt(latencyMs, 0, MAX_LATENCY_MS)) patch.latencyMs = latencyMs;
    else issues.push({ field: 'latencyMs', message: `must be an integer from 0 to ${MAX_LATENCY_MS}` });
  }
  if (failNext !== undefined) {
    if (isInt(failNext, 0, Number.MAX_SAFE_INTEGER)) patch.failNext = failNext;
    else issues.push({ field: 'failNext', message: 'must be a non-negative integer' });
  }
  if (failStatus !== undefined) {
    if (isInt(failStatus, 400, 599)) patch.failStatus = failStatus;
    else issues.push({ field: 'failStatus', message: 'must be an integer from 400 to 599' });
  }
  if (down !== undefined) {
    if (typeof down === 'boolean') patch.down = down;
    else issues.push({ field: 'down', message: 'must be a boolean' });
  }
  if (hang !== undefined) {
    if (typeof hang === 'boolean') patch.hang = hang;
    else issues.push({ field: 'hang', message: 'must be a boolean' });
  }
  if (answerDelayMs !== undefined) {
    if (isInt(answerDelayMs, 0, MAX_LATENCY_MS)) patch.answerDelayMs = answerDelayMs;
    else issues.push({ field: 'answerDelayMs', message: `must be an integer from 0 to ${MAX_LATENCY_MS}` });
  }
  return issues.length > 0 ? { issues } : { patch };
}

export function isV1Path(url: string): boolean {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path === '/v1' || path.startsWith('/v1/');
}

interface PendingDelay {
  timer: NodeJS.Timeout;
  resolve: () => void;
}

/** Fault state plus the requests it is holding (delayed or hung), so closing leaks nothing. */
export class SandboxFaults {
  private state = defaultFaultState();
  private readonly delays = new Set<PendingDelay>();
  private readonly hungSockets = new Set<Socket>();
  private released = false;

  get current(): FaultState {
    return { ...this.state };
  }

  apply(patch: Partial<FaultState>): FaultState {
    this.state = { ...this.state, ...patch };
    return this.current;
  }

  clear(): FaultState {
    this.state = defaultFaultState();
    return this.current;
  }

  /**
   * Runs the faults for one `/v1` request. Returns true when the request was answered (or
   * hijacked by `hang`) and must go no further.
   */
  async intercept(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (this.state.hang) {
      this.hold(request, reply);
      return true;
    }
    if (this.state.latencyMs > 0) await this.delay(this.state.latencyMs);
    if (this.state.down) {
      void reply.code(503).send({ error: 'sandbox_fault' });
      return true;
    }
    if (this.state.failNext > 0) {
      this.state.failNext -= 1;
      void reply.code(this.state.failStatus).send({ error: 'sandbox_fault' });
      return true;
    }
    return false;
  }

  /** Holds a `/v1` answer for `answerDelayMs`, if set. */
  async holdAnswer(): Promise<void> {
    if (this.state.answerDelayMs > 0) await this.delay(this.state.answerDelayMs);
  }

  /** On close: destroy hung sockets and let delayed requests finish now. */
  release(): void {
    this.released = true;
    for (const socket of this.hungSockets) socket.destroy();
    this.hungSockets.clear();
    for (const pending of this.delays) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    this.delays.clear();
  }

  private hold(request: FastifyRequest, reply: FastifyReply): void {
    // Fastify runs nothing more for a hijacked reply; nobody ever writes to it.
    reply.hijack();
    const socket = request.raw.socket as Socket | null | undefined;
    // Under `inject()` the socket is a mock: the request simply never resolves.
    if (!socket || typeof socket.destroy !== 'function' || socket.destroyed) return;
    this.hungSockets.add(socket);
    socket.once('close', () => this.hungSockets.delete(socket));
  }

  private delay(ms: number): Promise<void> {
    // A request that reaches a delay after close began would otherwise hold close() for the whole wait.
    if (this.released) return Promise.resolve();
    return new Promise((resolve) => {
      const pending: PendingDelay = {
        timer: setTimeout(() => {
          this.delays.delete(pending);
          resolve();
        }, ms),
        resolve,
      };
      this.delays.add(pending);
    });
  }
}

export interface SandboxCommonOptions {
  /** The one key `/v1` requests must present as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Drops every stored record; called by `POST /_sandbox/reset` (after faults are cleared). */
  onReset: () => void;
}

function bearerMatcher(apiKey: string): (header: string | undefined) => boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(apiKey);
  return (header) => {
    const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
    return match !== null && timingSafeEqual(digest(match[1]), expected);
  };
}

function clientErrorCode(status: number): string {
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  return 'bad_request';
}

/**
 * Installs the shared behaviour on the root instance (hooks are added directly, not in an
 * encapsulated plugin, so they see every route). Call it before registering the `/v1` routes.
 */
export function installSandboxCommon(app: FastifyInstance, options: SandboxCommonOptions): SandboxFaults {
  if (!options.apiKey) throw new Error('sandbox: apiKey must not be empty');
  const faults = new SandboxFaults();
  const authorized = bearerMatcher(options.apiKey);

  app.addHook('onRequest', async (request, reply) => {
    if (!isV1Path(request.url)) return;
    if (await faults.intercept(request, reply)) return reply;
    if (!authorized(request.headers.authorization)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized' });
    }
  });

  // Closing: hung sockets are destroyed and delayed requests answered now; every answer sent
  // from here on carries `Connection: close` so a keep-alive socket does not hold close() open.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    faults.release();
    done();
  });
  // Registered before the `Connection: close` hook so an answer released by close gets that header.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (isV1Path(request.url)) await faults.holdAnswer();
    return payload;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'sandbox: unhandled error');
      return reply.code(500).send({ error: 'internal_error' });
    }
    return reply.code(status).send({ error: clientErrorCode(status), message: error.message });
  });

  app.get('/health', () => ({ status: 'ok' }));

  registerControlRoutes(app, (control) => {
    control.get('/_sandbox/faults', () => faults.current);

    control.post('/_sandbox/faults', (request, reply) => {
      const result = parseFaultPatch(request.body);
      if ('issues' in result) return reply.code(400).send({ error: 'invalid_faults', details: result.issues });
      return faults.apply(result.patch);
    });

    control.delete('/_sandbox/faults', () => faults.clear());

    control.post('/_sandbox/reset', () => {
      faults.clear();
      options.onReset();
      return { status: 'reset' };
    });
  });

  return faults;
}

/**
 * Registers a sandbox's own `/_sandbox/*` routes. Control routes accept an empty body even when it
 * is labelled application/json, so a test helper that always sends that header can still call them
 * without a body.
 */
export function registerControlRoutes(app: FastifyInstance, routes: (control: FastifyInstance) => void): void {
  void app.register((control, _options, done) => {
    const parseJson = control.getDefaultJsonParser('error', 'error');
    control.removeContentTypeParser('application/json');
    control.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, parsed) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        parsed(null, undefined);
        return;
      }
      void parseJson(request, text, parsed);
    });
    routes(control);
    done();
  });
}
