import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppConfig } from '../../config/app.config';

/** Header values that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];
export const REDACTION_MARKER = '[Redacted]';

export function loggerOptions(config: AppConfig, stream?: DestinationStream): Params {
  const options = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: REDACTION_MARKER },
    // The request id Fastify generated (see generateRequestId), so logs and responses agree.
    genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        headers: req.headers,
        remoteAddress: req.remoteAddress,
      }),
    },
  };
  return { pinoHttp: stream ? [options, stream] : options };
}
