import { Logger, LoggerService } from '@nestjs/common';
import type { Dependency, DependencyFailure, ErrorResponse } from './error-response';

/** A stretch this long without a failure ends an outage even if no reconnection was seen. */
export const OUTAGE_QUIET_MS = 10_000;

interface Outage {
  since: number;
  lastFailureAt: number;
  failures: number;
  timer: NodeJS.Timeout;
}

/**
 * Logs a dependency outage once instead of once per request it fails. The first request that
 * fails because PostgreSQL or Redis is unreachable logs one warning, without a stack (it is not a
 * bug, and every request gets its own request line anyway); later ones of the same outage only at
 * debug; the end of it one line with how many requests it failed.
 *
 * An outage ends when a connection to the dependency succeeds (the pg pool connecting a client,
 * the Redis client becoming ready): an unreachable dependency leaves no working connection
 * behind, so the first request that works again needed a new one. Some failures leave working
 * connections (a statement timeout; a pool so busy with slow queries that waiting for a client
 * times out), and no new connection may follow them for long: `OUTAGE_QUIET_MS` without a
 * failure ends an outage too. So whatever fails, it warns at most once per burst of failures.
 */
export class DependencyOutages {
  private readonly ongoing = new Map<Dependency, Outage>();

  constructor(
    private readonly logger: Pick<LoggerService, 'warn' | 'log' | 'debug'> = new Logger('DependencyOutage'),
    private readonly quietMs = OUTAGE_QUIET_MS,
  ) {}

  failed({ dependency, reason }: DependencyFailure): void {
    const now = Date.now();
    const outage = this.ongoing.get(dependency);
    if (outage) {
      outage.failures += 1;
      outage.lastFailureAt = now;
      this.logger.debug?.(`${dependency} still unavailable: ${reason} (${outage.failures} requests answered 503 in this outage)`);
      return;
    }
    this.ongoing.set(dependency, { since: now, lastFailureAt: now, failures: 1, timer: this.quietTimer(dependency, this.quietMs) });
    this.logger.warn(`${dependency} unavailable: ${reason}; requests that need it get 503 until it is back (logged once per outage)`);
  }

  /** A connection to the dependency succeeded. */
  recovered(dependency: Dependency): void {
    const outage = this.ongoing.get(dependency);
    if (outage) this.end(dependency, outage, `${dependency} reachable again after ${seconds(Date.now() - outage.since)}`);
  }

  private quietTimer(dependency: Dependency, delayMs: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const outage = this.ongoing.get(dependency);
      if (!outage || outage.timer !== timer) return;
      const quietFor = Date.now() - outage.lastFailureAt;
      if (quietFor < this.quietMs) outage.timer = this.quietTimer(dependency, this.quietMs - quietFor);
      else this.end(dependency, outage, `no ${dependency} failure for ${seconds(this.quietMs)}`);
    }, delayMs);
    // Only a log line waits on it: it must not keep a process alive.
    timer.unref();
    return timer;
  }

  private end(dependency: Dependency, outage: Outage, how: string): void {
    clearTimeout(outage.timer);
    this.ongoing.delete(dependency);
    this.logger.log(`${how}; ${outage.failures} requests answered 503 in ${seconds(outage.lastFailureAt - outage.since)} of outage`);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The process's outage log: one per process, like the pg pool and the Redis client whose
 * reconnections end its outages (`DatabaseModule`, `RedisModule`).
 */
export const dependencyOutages = new DependencyOutages();

/**
 * How an exception filter logs the failure behind its error response: a bug with its stack, an
 * unreachable dependency once per outage, a client's mistake not at all (its request line says it).
 */
export function logRequestFailure(logger: Pick<LoggerService, 'error'>, exception: unknown, response: ErrorResponse, outages = dependencyOutages): void {
  if (response.dependencyFailure) outages.failed(response.dependencyFailure);
  else if (response.unexpected) logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
}
