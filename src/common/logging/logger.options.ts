import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import type { Params } from 'nestjs-pino';
import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';
import { activeTraceId, tracingOn } from '../tracing/tracing';
import { AppConfig } from '../../config/app.config';

/**
 * Request headers that are credentials, or carry one (the agreement page posts back to itself: its
 * Referer holds the link token). Their values never reach a log line.
 */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'referer', 'x-csrf-token']);
/**
 * Headers whose values are logged as sent (API keys still masked): what they carry is never a
 * credential, and a failed request is easier to follow with them. Any other header may be one a
 * client misplaced a secret in, so credential-shaped values in it are masked.
 */
const PLAIN_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'content-length',
  'content-type',
  'host',
  'idempotency-key',
  'origin',
  'user-agent',
  'x-request-id',
]);
export const REDACTION_MARKER = '[Redacted]';

/** Only ASCII escapes: every secret we mask is ASCII, and this never fails on malformed escapes. */
function decodeAsciiEscapes(url: string): string {
  return url.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const API_KEY_SHAPE = /\b(mk_(?:test|live)_)[A-Za-z0-9]+/g;
/**
 * What a bearer secret of ours looks like without a name or prefix: 32 or more URL-safe
 * characters in a row (a session, reset or invitation token is 43; an API key's body 37 or 38).
 * Ids (`pobo_` and 24 hex digits) are shorter, and a run of hex digits and hyphens only (a UUID, a
 * hash) is left alone: no secret of ours has that alphabet. "Only" is the whole run: the hex-and-
 * hyphen stretch must reach the run's end, or a token whose first hyphen follows hex digits alone
 * (`a3-…`, about one random token in a hundred) would pass for a UUID and be logged.
 */
const TOKEN_SHAPE = /(?<![A-Za-z0-9_-])(?![0-9a-fA-F-]+(?![A-Za-z0-9_-]))[A-Za-z0-9_-]{32,}/g;
/** An absolute URL: its user information and everything after its host may be credentials (a provider's RPC URL carries its key in the path). */
const ABSOLUTE_URL = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#@]*@)?([^\s/?#@]+)([^\s"'<>]*)/gi;
/**
 * Tokens that are the credential of their URL, wherever the path names them (`//agreements/`,
 * `/AGREEMENTS/` …): agreement links, receipts (`/receipts/<token>` and `/receipts/<token>/telex`).
 */
const PATH_TOKEN = /(\/+(?:agreements|receipts)\/+)[^/?#]+/gi;
/** Query parameters that carry credentials under a name, whatever their value looks like. */
const SECRET_PARAM = /([?&;](?:api[_-]?key|key|token|secret|password|access[_-]?token|authorization)=)[^&;#]*/gi;

/**
 * The URL as it is logged: escapes decoded first (so `/%61greements/…` or `mk%5Ftest_…` are seen
 * for what they are), then API keys, agreement-link and receipt tokens (bearer tokens: a log
 * reader must not be able to accept terms or read a payment's receipt with one) and
 * credential-named query values are masked.
 */
export function maskUrl(url: string): string {
  return maskCredentials(decodeAsciiEscapes(url)).replace(PATH_TOKEN, `$1${REDACTION_MARKER}`).replace(SECRET_PARAM, `$1${REDACTION_MARKER}`);
}

/**
 * Free text as logged (a message, an error's message and stack): absolute URLs cut to their
 * scheme and host, and credential shapes masked. A chain library's or a rail client's error
 * repeats the URL it called, and a provider's URL holds its key.
 */
export function scrubText(text: string): string {
  return maskCredentials(
    text.replace(ABSOLUTE_URL, (_url, scheme: string, host: string, rest: string) => `${scheme}${host}${rest.length > 1 ? `/${REDACTION_MARKER}` : rest}`),
  );
}

/** Every line's message and top-level text fields, and a logged error's message and stack, scrubbed (`scrubText`). */
const scrubbing: Pick<LoggerOptions, 'hooks' | 'serializers'> = {
  hooks: {
    logMethod(args, method) {
      for (let i = 0; i < args.length; i++) {
        const arg: unknown = args[i];
        if (typeof arg === 'string') args[i] = scrubText(arg);
        else if (arg !== null && typeof arg === 'object' && !(arg instanceof Error)) args[i] = scrubFields(arg as Record<string, unknown>);
      }
      method.apply(this, args);
    },
  },
  serializers: {
    // `err` is an Error in most lines, and a described error (text) in some.
    err: (err: unknown) => {
      if (typeof err === 'string') return scrubText(err);
      if (!(err instanceof Error)) return err;
      const serialized = pino.stdSerializers.err(err);
      serialized.message = scrubText(serialized.message);
      if (serialized.stack) serialized.stack = scrubText(serialized.stack);
      return serialized;
    },
  },
};

function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const scrubbed = scrubText(value);
    if (scrubbed !== value) (copy ??= { ...fields })[name] = scrubbed;
  }
  return copy ?? fields;
}

/**
 * No `redact` option: the only lines that carry request headers are built by `RequestLogController`,
 * which masks them itself (`maskHeaders`), and pino's redaction would clone every line to look for them.
 */
function pinoOptions(config: AppConfig): LoggerOptions {
  // The trace id beside the request id, while tracing is on (see `startTracing`).
  const traced: LoggerOptions = tracingOn() ? { mixin: () => traceFields(activeTraceId()) } : {};
  return { level: config.logLevel, ...scrubbing, ...traced };
}

const traceFields = (traceId: string | undefined): { traceId?: string } => (traceId ? { traceId } : {});

/** The process's one pino logger: Fastify's request log and Nest's logger both write through it. */
export function createRootLogger(config: AppConfig, stream?: DestinationStream): Logger {
  return pino(pinoOptions(config), stream ?? logDestination(config));
}

/** What `logDestination` needs of stdout; a parameter so tests can stand in for a terminal. */
export interface LogOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

type PrettyLine = Record<string, unknown> & {
  context?: unknown;
  request?: { method?: unknown; url?: unknown };
  response?: { statusCode?: unknown };
  responseTime?: unknown;
};
type PrettyFactory = (options: {
  ignore?: string;
  translateTime?: string;
  messageFormat?: (line: PrettyLine, messageKey: string) => string;
}) => (line: string) => string;

/**
 * A request's line leads with what a person scans for (method, URL, status, time) and a Nest
 * line with its context; the id, client address and, on failures, the headers follow below it.
 */
function prettyMessage(line: PrettyLine, messageKey: string): string {
  const context = typeof line.context === 'string' ? `[${line.context}] ` : '';
  const message = scalar(line[messageKey]);
  const { request, response, responseTime } = line;
  if (typeof request?.method !== 'string') return `${context}${message}`;
  const took = typeof responseTime === 'number' ? ` ${responseTime.toFixed(1)} ms` : '';
  return `${context}${request.method} ${scalar(request.url)} ${scalar(response?.statusCode)}${took}: ${message}`;
}

function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  messageFormat: prettyMessage,
  ignore: 'pid,hostname,context,request.method,request.url,response,responseTime',
};

/**
 * JSON lines for machines (pipes, files, log collectors, tests, and production whatever its
 * stdout), readable lines for a person at a terminal in development. Lines are masked before they
 * are logged, so the pretty printer only ever sees masked lines.
 */
export function logDestination(config: Pick<AppConfig, 'env'>, out: LogOutput = process.stdout, loadPretty = loadPrettyFactory): DestinationStream {
  const prettyFactory = out.isTTY === true && config.env !== 'production' ? loadPretty() : undefined;
  if (!prettyFactory) return pino.destination({ fd: 1, sync: false });
  const pretty = prettyFactory(PRETTY_OPTIONS);
  // Formatted and written in the same call, not through pino-pretty's stream: a line logged just
  // before the process exits (a failed boot) is not lost in a pipeline still to be drained.
  return { write: (line: string) => void out.write(pretty(line)) };
}

/**
 * pino-pretty is a development dependency: required only when a terminal asks for it, and its
 * absence (an install without development dependencies) means JSON, not a failed boot.
 */
function loadPrettyFactory(): PrettyFactory | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
    return (require('pino-pretty') as { prettyFactory: PrettyFactory }).prettyFactory;
  } catch {
    return undefined;
  }
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
      request: {
        id: request.id,
        method: request.method,
        url: maskUrl(request.url),
        remoteAddress: request.ip,
        ...(failed ? { headers: maskHeaders(request.headers) } : {}),
      },
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

/**
 * A failed request's headers as logged: credential headers replaced whole, an API key masked
 * wherever else it appears (a key pasted into the wrong header), and credential-shaped values
 * masked in any header not known to be plain.
 */
export function maskHeaders(headers: FastifyRequest['headers']): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    const mask = PLAIN_HEADERS.has(name) ? maskKeys : maskCredentials;
    masked[name] = SECRET_HEADERS.has(name) ? REDACTION_MARKER : Array.isArray(value) ? value.map(mask) : typeof value === 'string' ? mask(value) : value;
  }
  return masked;
}

function maskKeys(value: string): string {
  return value.replace(API_KEY_SHAPE, `$1${REDACTION_MARKER}`);
}

/** API keys, and any run of characters shaped like one of our bearer secrets. */
function maskCredentials(value: string): string {
  return maskKeys(value).replace(TOKEN_SHAPE, REDACTION_MARKER);
}
