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

/** Agreement links are bearer tokens: a log reader must not be able to accept terms with one. */
function maskTokens(url: string): string {
  return url.startsWith('/agreements/') ? url.replace(/^\/agreements\/[^/?#]+/, `/agreements/${REDACTION_MARKER}`) : url;
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
      request: { id: request.id, method: request.method, url: maskTokens(request.url), remoteAddress: request.ip, ...(failed ? { headers: request.headers } : {}) },
      response: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error || reply.statusCode >= 500) reply.log.error({ ...fields, err: error }, 'request completed');
    else if (reply.statusCode >= 400) reply.log.warn(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}
