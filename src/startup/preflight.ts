import Redis from 'ioredis';
import { Client } from 'pg';
import { AppConfig } from '../config/app.config';

/**
 * Checks, before a process boots, that PostgreSQL and Redis answer, and says in plain words which
 * one does not, where it was looked for and how to start it. Without this a first run on a laptop
 * without the services ends in a driver stack trace after TypeORM's retries (PostgreSQL), or boots
 * and serves 503s without a word (Redis).
 *
 * Deliberately light (pg, ioredis and the config only): an entry point runs it before loading Nest
 * and the modules, so the answer comes within the probe timeout rather than after the boot.
 */

/** Long enough for a server on another host under load; short enough to answer within 5 s in all. */
export const PROBE_TIMEOUT_MS = 2_000;

export interface PreflightOptions {
  /** Which services this process needs; both unless said otherwise (the CLI needs no Redis). */
  redis?: boolean;
  /** `npm start` and the CLI create a missing database; the API and worker need it to exist. */
  databaseMayBeMissing?: boolean;
  /** The environment the URLs came from: tells a URL that was set from a default. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** One paragraph per service that does not answer; the message is meant for a person, as is. */
export class DependenciesUnavailableError extends Error {
  constructor(readonly paragraphs: string[]) {
    super(paragraphs.join('\n\n'));
  }
}

/** Resolves when every needed service answers; otherwise throws `DependenciesUnavailableError`. */
export async function assertDependenciesReachable(config: Pick<AppConfig, 'databaseUrl' | 'redisUrl'>, options: PreflightOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const [database, redis] = await Promise.all([
    probePostgres(config.databaseUrl, timeoutMs, options.databaseMayBeMissing ?? false, env),
    options.redis === false ? undefined : probeRedis(config.redisUrl, timeoutMs, env),
  ]);
  const paragraphs = [database, redis].filter((p): p is string => p !== undefined);
  if (paragraphs.length > 0) throw new DependenciesUnavailableError(paragraphs);
}

interface Target {
  service: 'PostgreSQL' | 'Redis';
  variable: 'DATABASE_URL' | 'REDIS_URL';
  url: string;
  defaultPort: number;
  env: NodeJS.ProcessEnv;
}

async function probePostgres(url: string, timeoutMs: number, databaseMayBeMissing: boolean, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const target: Target = { service: 'PostgreSQL', variable: 'DATABASE_URL', url, defaultPort: 5432, env };
  let client: Client;
  try {
    client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  } catch (err) {
    return unreachable(target, reason(err as ProbeError, timeoutMs, url));
  }
  // The socket's own error (ECONNREFUSED …) says more than the "Connection terminated" the connect
  // promise may reject with; it also must not go unhandled.
  let socketError: ProbeError | undefined;
  client.on('error', (err: ProbeError) => (socketError ??= err));
  try {
    await withDeadline(client.connect(), timeoutMs);
    return undefined;
  } catch (err) {
    const e = pickCause(err as ProbeError, socketError);
    if (e.code === '3D000') {
      if (databaseMayBeMissing) return undefined;
      return (
        `PostgreSQL at ${where(target)} has no database ${quotedDatabase(url)}. ` +
        'Run `npm start` once (it creates the database and applies the migrations), or create it and run `npm run migration:run`.'
      );
    }
    if (e.code === '28P01' || e.code === '28000') {
      return `PostgreSQL at ${where(target)} refused the login: ${scrub(e.message, url).replace(/\.+$/, '')}. Check the user and password in DATABASE_URL.`;
    }
    return unreachable(target, reason(e, timeoutMs, url));
  } finally {
    void client.end().catch(() => undefined);
  }
}

async function probeRedis(url: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const target: Target = { service: 'Redis', variable: 'REDIS_URL', url, defaultPort: 6379, env };
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    // One attempt: the probe reports, it does not wait for Redis to appear.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  // ioredis rejects `connect()` with a bare "Connection is closed"; the cause comes as an event.
  let socketError: ProbeError | undefined;
  redis.on('error', (err: ProbeError) => (socketError ??= err));
  try {
    await withDeadline(
      redis.connect().then(() => redis.ping()),
      timeoutMs,
    );
    return undefined;
  } catch (err) {
    const e = pickCause(err as ProbeError, socketError);
    if (/NOAUTH|WRONGPASS|invalid password/i.test(e.message ?? '')) {
      return `Redis at ${where(target)} refused the login: ${scrub(e.message, url).replace(/\.+$/, '')}. Check the user and password in REDIS_URL.`;
    }
    return unreachable(target, reason(e, timeoutMs, url));
  } finally {
    redis.disconnect();
  }
}

type ProbeError = Error & { code?: string };

function pickCause(rejection: ProbeError, emitted: ProbeError | undefined): ProbeError {
  if (rejection instanceof DeadlineError || !emitted) return rejection;
  return /^(Connection is closed|Connection terminated)/.test(rejection.message) ? emitted : rejection;
}

function unreachable(target: Target, why: string): string {
  const fix = target.env[target.variable] ? `set ${target.variable} to a server that is running` : `set ${target.variable}`;
  return `${target.service} is not reachable at ${where(target)}: ${why}. Start it with \`docker compose up -d\`, or ${fix}.`;
}

/** `host:port (from VAR)`, never the whole URL: it may carry a password. */
function where(target: Target): string {
  const source = target.env[target.variable] ? `from ${target.variable}` : `the default; ${target.variable} is not set`;
  return `${hostAndPort(target.url, target.defaultPort)} (${source})`;
}

/**
 * Parsed by hand: WHATWG `URL` refuses forms drivers accept, such as libpq's Unix-socket form
 * `postgres://user@/db?host=/var/run/postgresql`.
 */
export function hostAndPort(url: string, defaultPort: number): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(hostPort);
  const port = match?.[2] || String(defaultPort);
  const socketDir = /[?&]host=([^&#]*)/.exec(url)?.[1];
  if (socketDir) {
    const dir = safeDecode(socketDir);
    if (dir.startsWith('/')) return `${dir.replace(/\/+$/, '')}/.s.PGSQL.${port}`;
    return `${dir}:${port}`;
  }
  return `${match?.[1] || 'localhost'}:${port}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function quotedDatabase(url: string): string {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/([^?#]*)/i.exec(url)?.[1];
  return path ? `"${safeDecode(path)}"` : 'named in DATABASE_URL';
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing is listening there)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'no answer',
  ENOENT: 'no socket at that path',
};

function reason(err: ProbeError, timeoutMs: number, url: string): string {
  const seconds = `${timeoutMs / 1000} s`;
  if (err instanceof DeadlineError || err.code === 'ETIMEDOUT' || /timeout expired|ETIMEDOUT/.test(err.message ?? '')) return `no answer within ${seconds}`;
  const known = (err.code && REASONS[err.code]) || REASONS[/\b(E[A-Z_]+)\b/.exec(err.message ?? '')?.[1] ?? ''];
  if (known) return known;
  return scrub(`${err.code ? `${err.code}: ` : ''}${err.message ?? String(err)}`, url).replace(/\.+$/, '');
}

/** Driver messages do not quote URLs today; this keeps a password out should one ever do. */
function scrub(message: string, url: string): string {
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(url)?.[1] ?? '';
  const separator = userinfo.indexOf(':');
  const secrets = separator < 0 ? [] : [userinfo.slice(separator + 1), safeDecode(userinfo.slice(separator + 1))].filter(Boolean);
  let line = message.split('\n', 1)[0];
  for (const secret of secrets) line = line.split(secret).join('***');
  return line;
}

class DeadlineError extends Error {}

/** The drivers' own timeouts cover connecting; this also bounds a server that accepts and then stalls. */
function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError('deadline')), timeoutMs + 250);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
