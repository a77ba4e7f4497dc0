import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import type { Params } from 'nestjs-pino';
import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';
import { AppConfig } from '../../config/app.config';

/** Header values that must never reach a log line. */
export const REDACTED_PATHS = [
  'request.headers["x-api-key"]',
  'request.headers.authorization',
  'request.headers.cookie',
  // The agreement page posts back to itself: its Referer carries the link token.
  'request.headers.referer',
];
export const REDACTION_MARKER = '[Redacted]';

/** Only ASCII escapes: every secret we mask is ASCII, and this never fails on malformed escapes. */
function decodeAsciiEscapes(url: string): string {
  return url.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const API_KEY_SHAPE = /\b(mk_(?:test|live)_)[A-Za-z0-9]+/g;
/** Agreement-link tokens, wherever the path names them (`//agreements/`, `/AGREEMENTS/` …). */
const AGREEMENT_TOKEN = /(\/+agreements\/+)[^/?#]+/gi;
/** Query parameters that carry credentials under a name, whatever their value looks like. */
const SECRET_PARAM = /([?&;](?:api[_-]?key|key|token|secret|password|access[_-]?token|authorization)=)[^&;#]*/gi;

/**
 * The URL as it is logged: escapes decoded first (so `/%61greements/…` or `mk%5Ftest_…` are seen
 * for what they are), then API keys, agreement-link tokens (bearer tokens: a log reader must not
 * be able to accept terms with one) and credential-named query values are masked.
 */
export function maskUrl(url: string): string {
  return decodeAsciiEscapes(url)
    .replace(API_KEY_SHAPE, `$1${REDACTION_MARKER}`)
    .replace(AGREEMENT_TOKEN, `$1${REDACTION_MARKER}`)
    .replace(SECRET_PARAM, `$1${REDACTION_MARKER}`);
}

function pinoOptions(config: AppConfig): LoggerOptions {
  return { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: REDACTION_MARKER } };
}

/** The process's one pino logger: Fastify's request log and Nest's logger both write through it. */
export function createRootLogger(config: AppConfig, stream?: DestinationStream): Logger {
  return pino(pinoOptions(config), stream ?? pino.destination({ fd: 1, sync: false }));
}

/**
 * nestjs-pino serves as Nest's logger on the root logger. Its per-request middleware is not
 * mounted (`forRoutes: []`): Fastify already gives each request a child logger carrying the
 * request id, at a fraction of the cost of pino-http behind middie and AsyncLocalStorage.
 */
export function nestLoggerParams(logger: Logger): Params {
  return { pinoHttp: { logger }, forRoutes: [] };
}

/**
 * One line per request, after the response, at a level that follows the status. Request headers
 * (redacted) are logged only for failed requests, where they help; a successful request's line
 * stays small, which keeps the hot paths cheap.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const failed = Boolean(error) || reply.statusCode >= 400;
    // Not under `req`/`res`: Fastify's own serializers for those keys would drop fields.
    const fields = {
      request: { id: request.id, method: request.method, url: maskUrl(request.url), remoteAddress: request.ip, ...(failed ? { headers: maskHeaders(request.headers) } : {}) },
      response: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error && isClientAbort(error)) reply.log.info(fields, 'client went away before the request was complete');
    // 503 is load shedding or a dependency outage: expected, and logged once per outage elsewhere.
    else if (error || (reply.statusCode >= 500 && reply.statusCode !== 503)) reply.log.error({ ...fields, err: error }, 'request completed');
    else if (reply.statusCode >= 400) reply.log.warn(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}

/** A client that closed its connection mid-request is not a server error. */
function isClientAbort(error: Error & { code?: string }): boolean {
  return error.code === 'ECONNRESET' || error.message === 'aborted';
}

/** Credentials under headers other than the redacted ones (a key pasted into the wrong header). */
function maskHeaders(headers: FastifyRequest['headers']): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    masked[name] = typeof value === 'string' ? value.replace(API_KEY_SHAPE, `$1${REDACTION_MARKER}`) : value;
  }
  return masked;
}
