import { ChildProcess, fork } from 'node:child_process';

export interface RoleSpec {
  script: string;
  execArgv?: string[];
}

export interface SupervisorOptions {
  /** The pause before the first restart; it doubles with each exit in a row. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** A run this long counts as a healthy one: the next exit starts the back-off afresh. */
  healthyRunMs: number;
  /** Exits in a row, each within `healthyRunMs` of the role's start, after which everything stops. */
  maxQuickExits: number;
  log: (line: string) => void;
}

export const SUPERVISOR_DEFAULTS: SupervisorOptions = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  healthyRunMs: 60_000,
  maxQuickExits: 5,
  log: (line) => process.stderr.write(`${line}\n`),
};

export interface Supervisor {
  /** SIGTERM to every role; none is restarted from then on. Sets the process's exit code. */
  stop(code: number): void;
  /** The role's current process. */
  child(role: string): ChildProcess | undefined;
  /** Resolves once `stop` ran and every role's process has exited. */
  readonly stopped: Promise<void>;
}

/**
 * Runs each role as its own Node process and supervises them as a process manager would: a role
 * that exits, whatever the cause, is started again after a pause that doubles with each exit in a
 * row (1 s, 2 s, 4 s … up to 30 s by default). A role that keeps exiting soon after its start is
 * broken rather than unlucky: after `maxQuickExits` of those in a row everything stops, so a
 * broken start is never mistaken for a running one.
 */
export function superviseRoles(roles: Record<string, RoleSpec>, env: NodeJS.ProcessEnv, overrides: Partial<SupervisorOptions> = {}): Supervisor {
  const options = { ...SUPERVISOR_DEFAULTS, ...overrides };
  const children = new Map<string, ChildProcess>();
  const quickExits = new Map<string, number>();
  let stopping = false;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  const running = () => [...children.values()].filter((child) => child.exitCode === null && child.signalCode === null);
  const settleIfDone = () => stopping && running().length === 0 && markStopped();

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    process.exitCode = code;
    for (const child of running()) child.kill('SIGTERM');
    settleIfDone();
  };

  const start = (role: string, spec: RoleSpec) => {
    const startedAt = Date.now();
    const child = fork(spec.script, [], { execArgv: spec.execArgv ?? [], stdio: 'inherit', env });
    children.set(role, child);
    child.on('exit', (code, signal) => {
      if (stopping) return settleIfDone();
      const how = signal ?? `code ${code}`;
      const exits = Date.now() - startedAt < options.healthyRunMs ? (quickExits.get(role) ?? 0) + 1 : 1;
      quickExits.set(role, exits);
      if (exits > options.maxQuickExits) {
        options.log(`${role} exited (${how}) ${exits} times in a row, each within ${options.healthyRunMs / 1000} s of starting; stopping`);
        return stop(code || 1);
      }
      const delayMs = Math.min(options.firstDelayMs * 2 ** (exits - 1), options.maxDelayMs);
      options.log(`${role} exited (${how}); restarting it in ${delayMs / 1000} s`);
      setTimeout(() => stopping || start(role, spec), delayMs);
    });
  };

  for (const [role, spec] of Object.entries(roles)) start(role, spec);
  return { stop, child: (role) => children.get(role), stopped };
}
