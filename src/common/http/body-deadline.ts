import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';

export interface BodyDeadlineOptions {
  /** A body that sends nothing for this long is cut off. */
  idleTimeoutMs: number;
  /** Once a body has been arriving for `idleTimeoutMs`, it must average at least this rate. */
  minBytesPerSecond: number;
}

export class RequestTimeoutError extends AppError {
  constructor(message: string) {
    // The rest of the body is never read: closing the connection is the only way to stop it.
    super('request_timeout', message, [], { Connection: 'close' });
  }
}

/** True when the request announces a body (the test Fastify itself uses). */
function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** Methods whose body Fastify never reads (its `bodyless` methods): the watch drains it itself. */
const UNREAD_BODY_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Bounds how long a request body may take on every route, so that a client that stalls or
 * trickles (slowloris) cannot hold a connection, an upload slot or a shutdown: a body that sends
 * nothing for `idleTimeoutMs`, or averages less than `minBytesPerSecond` once it has been
 * arriving that long, is answered 408 `request_timeout` and its connection closed.
 *
 * Installed as the first preParsing hook, so the routes that read their body inside a hook (the
 * KYB upload) are watched too. A body that nobody reads (a GET's) is drained by the watch under
 * the same deadline, and a client that goes away at any point ends the watch: the watch's own
 * stream has an error listener, so neither can ever raise an unhandled 'error' that ends the
 * process.
 */
export function installBodyDeadline(fastify: FastifyInstance, options: BodyDeadlineOptions): void {
  const checkEveryMs = Math.max(50, Math.min(1_000, Math.floor(options.idleTimeoutMs / 4)));
  fastify.addHook('preParsing', (request: FastifyRequest, reply: FastifyReply, payload: Readable, done: (err: Error | null, body?: Readable) => void) => {
    // A client gone before this hook (during authentication) has nothing left to watch.
    if (!hasBody(request) || request.raw.destroyed) return done(null, payload);
    const watched = new PassThrough();
    // Fastify's body reader listens for errors on `watched`; when nothing reads it (a GET's body,
    // a request answered or aborted before its body) the cut's error still has a listener here.
    watched.on('error', () => undefined);
    if (UNREAD_BODY_METHODS.has(request.method)) watched.resume();
    const startedAt = Date.now();
    let lastDataAt = startedAt;
    let received = 0;

    const timer = setInterval(() => {
      if (request.raw.destroyed) return stop();
      const now = Date.now();
      if (now - lastDataAt >= options.idleTimeoutMs) return cut(`No request body data for ${options.idleTimeoutMs} ms`);
      const elapsed = now - startedAt;
      if (elapsed >= options.idleTimeoutMs && (received * 1000) / elapsed < options.minBytesPerSecond) {
        cut(`Request body arrived slower than ${options.minBytesPerSecond} bytes per second`);
      }
    }, checkEveryMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    const cut = (message: string) => {
      stop();
      payload.unpipe(watched);
      // The socket goes once the 408 is out (at once when the route has already answered):
      // nothing more of this body is read.
      if (reply.raw.writableFinished) request.raw.destroy();
      else reply.raw.once('finish', () => request.raw.destroy());
      watched.destroy(new RequestTimeoutError(message));
    };

    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      lastDataAt = Date.now();
    });
    payload.once('end', stop);
    // A client that goes away mid-body: Fastify answers nobody, the watch just ends.
    payload.once('error', (err) => {
      stop();
      watched.destroy(err);
    });
    request.raw.once('close', stop);
    reply.raw.once('close', stop);
    payload.pipe(watched);
    done(null, watched);
  });
}

/**
 * Shutdown within a budget: Fastify refuses new requests (503) and closes idle keep-alive
 * connections as soon as close starts; requests in flight, including bodies still arriving at a
 * healthy rate, may finish. A stalled body is cut by the body deadline well within the budget;
 * whatever is still open when the budget runs out is closed.
 */
export function installShutdownBudget(fastify: FastifyInstance, budgetMs: number): void {
  fastify.addHook('preClose', (done) => {
    setTimeout(() => fastify.server.closeAllConnections(), budgetMs).unref();
    done();
  });
}
