import { AppError } from '../common/errors/app-error';
import { ConfigError } from '../config/app.config';
import { DependenciesUnavailableError } from '../startup/preflight';

/** The command was called wrongly: its usage text is the message. */
export class UsageError extends Error {}

/**
 * Runs an operator command that prints its one JSON line itself. Exit 1 with one message for an
 * expected failure (configuration, a dependency down, a refusal of the service's own); exit 2 with
 * the usage for a wrong call, or with the stack for a failure nobody expected.
 */
export function runCli(main: () => Promise<void>): void {
  // stdout carries only the result line: libraries that log with console.log go to stderr.
  console.log = console.error;
  main().catch((err: unknown) => {
    const expected =
      err instanceof UsageError ||
      err instanceof ConfigError ||
      err instanceof DependenciesUnavailableError ||
      err instanceof AppError ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`${expected ? (err as Error).message : `error: ${(err as Error).stack ?? String(err)}`}\n`);
    process.exit(expected && !(err instanceof UsageError) ? 1 : 2);
  });
}
