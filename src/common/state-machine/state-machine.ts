/**
 * One status field's states and the moves allowed between them. Every rule derived from the
 * table (which states a move may start from, which states are final) is asked of it, never
 * written down a second time.
 */
export class StateMachine<S extends string> {
  readonly states: readonly S[];

  constructor(
    readonly field: string,
    private readonly moves: { readonly [K in S]: readonly NoInfer<S>[] },
  ) {
    this.states = Object.keys(moves) as S[];
  }

  can(from: string, to: string): boolean {
    return (this.moves as Record<string, readonly string[] | undefined>)[from]?.includes(to) ?? false;
  }

  /** The states from which `to` is one allowed move away. */
  sourcesOf(to: S): S[] {
    return this.states.filter((from) => this.can(from, to));
  }

  isFinal(state: S): boolean {
    return this.moves[state].length === 0;
  }

  /** `'a', 'b'` for CHECK constraints; the values are our own identifiers, never input. */
  sqlList(): string {
    return this.states.map((state) => `'${state}'`).join(', ');
  }
}
