import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const SANDBOX_HOST = '127.0.0.1';
const FORCED_EXIT_AFTER_MS = 5_000;

/** An integer environment variable; unset or empty means `fallback`. Throws naming the variable. */
export function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A string environment variable; unset or empty means `fallback`. */
export function envString(name: string, fallback: string): string {
  const raw = process.env[name];
  return raw === undefined || raw.trim() === '' ? fallback : raw;
}

/**
 * Listens on 127.0.0.1, prints one line, and closes gracefully on SIGTERM/SIGINT (hung
 * sandbox requests are destroyed on close; a stuck close is cut short after 5 s).
 */
export async function runSandbox(name: string, app: FastifyInstance, port: number, details = ''): Promise<void> {
  await app.listen({ host: SANDBOX_HOST, port });
  const { port: actualPort } = app.server.address() as AddressInfo;
  process.stdout.write(`${name} sandbox listening on http://${SANDBOX_HOST}:${actualPort}${details ? ` (${details})` : ''}\n`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${name} sandbox: ${signal}, closing\n`);
    setTimeout(() => {
      process.stderr.write(`${name} sandbox: close took longer than ${FORCED_EXIT_AFTER_MS} ms, exiting\n`);
      process.exit(1);
    }, FORCED_EXIT_AFTER_MS).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`${name} sandbox: close failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Entry-point wrapper: a failure to start prints one line and exits 1. */
export function startSandbox(name: string, start: () => Promise<void>): void {
  start().catch((err: unknown) => {
    process.stderr.write(`${name} sandbox failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
