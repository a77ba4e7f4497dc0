import { hostname } from 'node:os';
import pino from 'pino';
import { scrubText } from './logger.options';

/**
 * Defence in depth for the API and the worker: every stream, socket and client they create
 * handles its own errors, but if something still escapes (an unhandled 'error' event, a rejected
 * promise nobody awaited), the process logs the cause as one JSON line at fatal level, written
 * synchronously so it is not lost with the process, and exits 1 for its supervisor to restart it
 * (`npm start`'s orchestrator, a process manager or a container's restart policy). Going on after
 * an uncaught exception would run with state nobody can vouch for.
 */
export function exitOnCrash(role: string): void {
  const log = pino({ base: { pid: process.pid, hostname: hostname(), role } }, pino.destination({ fd: 1, sync: true }));
  const crash = (kind: string) => (err: unknown) => {
    const cause = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    const stack = err instanceof Error && err.stack ? scrubText(err.stack) : undefined;
    log.fatal({ crash: { kind, stack } }, `${role} crashed (${kind}): ${scrubText(cause)}`);
    process.exit(1);
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled rejection'));
}
