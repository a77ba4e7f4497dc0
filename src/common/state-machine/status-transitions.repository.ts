import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { AppError } from '../errors/app-error';
import type { StateMachine } from './state-machine';

// The one piece of generic data access: each resource's states service (in its owner's module)
// is the only caller for its table and its history table.

/** The shape every status history table shares: append-only, one row per move, with its cause. */
export interface StatusHistoryRow {
  resourceId: string;
  field: string;
  fromStatus: string;
  toStatus: string;
  cause: string;
}

export interface StatusResource {
  id: string;
  updatedAt: Date;
}

export interface TransitionsOptions<E extends StatusResource, F extends string> {
  entity: EntityTarget<E>;
  /** The resource's history entity; rows are built by `historyRow`. */
  history: EntityTarget<ObjectLiteral>;
  historyRow: (row: StatusHistoryRow) => ObjectLiteral;
  /** Each status field: the entity property that holds it and its machine. */
  fields: { readonly [K in F]: { property: keyof E & string; machine: StateMachine<string> } };
  /** The module error an illegal move is refused with. */
  refuse: (field: F, from: string, to: string) => AppError;
}

/** One move of a resource: the status fields it changes, its cause, what is written with it. */
export interface Move<E, F extends string> {
  change: Partial<Record<F, string>>;
  cause: string;
  extra?: Partial<E>;
}

/**
 * Applies status moves to one resource inside the caller's transaction: the row is locked first
 * (`lock`), every move is checked against its machine, the row is updated and each move appended
 * to the history with its cause. A business (several status fields) has one directly; the
 * resources with one `status` field have theirs through `StatusStates`.
 */
export class Transitions<E extends StatusResource, F extends string> {
  constructor(private readonly options: TransitionsOptions<E, F>) {}

  /** `SELECT … FOR UPDATE`: concurrent moves of one resource run one after another. */
  lock(manager: EntityManager, id: string): Promise<E | null> {
    return manager.getRepository(this.options.entity).findOne({ where: { id } as never, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Moves `resource` (locked by `lock` in this transaction) as `change` says and writes `extra`
   * with it. A move to the current status is no move; an illegal one throws `refuse(…)` and
   * writes nothing.
   */
  async apply(manager: EntityManager, resource: E, change: Partial<Record<F, string>>, cause: string, extra: Partial<E> = {}): Promise<E> {
    await this.applyAll(manager, resource, [{ change, cause, extra }]);
    return resource;
  }

  /**
   * Moves in a row, each checked from where the one before left the resource, written with one
   * UPDATE and one INSERT of their history rows, in order. Nothing is written when one is
   * illegal. Resolves with the resource as each move that changed a status left it (copies:
   * `resource` itself ends as the last move left it).
   */
  async applyAll(manager: EntityManager, resource: E, moves: ReadonlyArray<Move<E, F>>): Promise<E[]> {
    const history: ObjectLiteral[] = [];
    const update: Partial<E> = {};
    const states: E[] = [];
    const now = new Date();
    for (const { change, cause, extra = {} } of moves) {
      Object.assign(update, extra);
      let moved = false;
      for (const field of Object.keys(change) as F[]) {
        const { property, machine } = this.options.fields[field];
        const to = change[field] as string;
        const from = (property in update ? update[property] : resource[property]) as string;
        if (from === to) continue;
        if (!machine.can(from, to)) throw this.options.refuse(field, from, to);
        Object.assign(update, { [property]: to });
        history.push(this.options.historyRow({ resourceId: resource.id, field, fromStatus: from, toStatus: to, cause }));
        moved = true;
      }
      if (moved) states.push({ ...resource, ...update, updatedAt: now });
    }
    if (Object.keys(update).length === 0) return states;
    update.updatedAt = now;
    await manager.update(this.options.entity, { id: resource.id }, update as never);
    if (history.length > 0) await manager.insert(this.options.history, history);
    Object.assign(resource, update);
    return states;
  }
}

/**
 * The states service of a resource with one `status` field (a payment intent, a withdrawal, an
 * international payment intent): the only code that changes its status, `lock` in the caller's
 * transaction, then `apply`. Each module's service extends it with its entity, machine, history
 * and refusal, and with `events`: the moves a merchant hears of, each recorded by the service's
 * `emit` after the move, in the same transaction.
 */
export abstract class StatusStates<E extends StatusResource & { status: S }, S extends string, X extends Partial<E>> {
  private readonly transitions: Transitions<E, 'status'>;
  private readonly eventsOf: (to: S) => readonly string[];

  protected constructor(
    options: Omit<TransitionsOptions<E, 'status'>, 'fields' | 'refuse'> & {
      machine: StateMachine<S>;
      refuse: (from: string, to: string) => AppError;
      /** The event types a move to `to` records, in order (none unless given). */
      events?: (to: S) => readonly string[];
    },
  ) {
    const { machine, refuse, events = () => [], ...rest } = options;
    this.eventsOf = events;
    this.transitions = new Transitions<E, 'status'>({
      ...rest,
      fields: { status: { property: 'status', machine } },
      refuse: (_field, from, to) => refuse(from, to),
    });
  }

  lock(manager: EntityManager, id: string): Promise<E | null> {
    return this.transitions.lock(manager, id);
  }

  async apply(manager: EntityManager, resource: E, status: S, cause: string, extra: X = {} as X): Promise<E> {
    await this.applyAll(manager, resource, [{ status, cause, extra }]);
    return resource;
  }

  /**
   * Moves in a row, as `Transitions.applyAll` writes them, then their events through one
   * `emitMoves`, each with the resource as its move left it. Resolves with those states, one per
   * move that changed the status.
   */
  async applyAll(manager: EntityManager, resource: E, moves: ReadonlyArray<StatusMove<S, X>>): Promise<E[]> {
    const states = await this.transitions.applyAll(
      manager,
      resource,
      moves.map(({ status, cause, extra }) => ({ change: { status }, cause, extra })),
    );
    const moments = states.map((state) => ({ resource: state, types: this.eventsOf(state.status) })).filter(({ types }) => types.length > 0);
    if (moments.length > 0) await this.emitMoves(manager, moments);
    return states;
  }

  /** Records the events `types` of `resource`, as it now is, in the transaction; a service whose `events` name any implements it. */
  protected emit(_manager: EntityManager, resource: E, types: readonly string[]): Promise<void> {
    return Promise.reject(new Error(`${types.join(', ')} of ${resource.id}: this states service records no events`));
  }

  /**
   * The events of moves made together, in order: one `emit` each, unless the service records them
   * at once. An `emit` that reads its row back sees the row as the last move left it, so such a
   * service makes one move at a time.
   */
  protected async emitMoves(manager: EntityManager, moments: ReadonlyArray<{ resource: E; types: readonly string[] }>): Promise<void> {
    for (const { resource, types } of moments) await this.emit(manager, resource, types);
  }
}

/** One move of a resource with one `status` field. */
export interface StatusMove<S extends string, X> {
  status: S;
  cause: string;
  extra?: X;
}
