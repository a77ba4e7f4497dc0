import type { StateMachine } from '../state-machine/state-machine';

/**
 * One kind of money object as the operator port counts it, declared by the module that owns its
 * table (the money census composes the declarations into its statements and reads nothing else
 * of the table): its statuses are counted, its unfinished ones aged, and an object still in a step
 * `STUCK_AFTER_MS` after the step's clock started is stuck.
 */
export interface MoneyObjectSource {
  /** The object's type, as its events name it. */
  kind: string;
  table: string;
  /** Its status history: the table and the column naming the object. */
  history: { table: string; column: string };
  /**
   * The unfinished statuses, each with the column its step's clock starts from: `updated_at` (the
   * last move) for a step the service drives, a deadline column for a step that ends at one.
   */
  steps: Record<string, string>;
}

/** `steps` where every status its machine does not call final is unfinished, each timed from the object's last move. */
export function stepsBeforeFinal(machine: StateMachine<string>): Record<string, string> {
  return Object.fromEntries(machine.states.filter((status) => !machine.isFinal(status)).map((status) => [status, 'updated_at']));
}
