import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Outbox } from '../../jobs';
import { StatusMove, StatusStates } from '../../common/state-machine/status-transitions.repository';
import { EventsService, EventType } from '../events';
import { LedgerService } from '../ledger';
import { InternationalIntentStatusHistoryEntity } from './international-intent-status-history.entity';
import { InternationalIntentEntity } from './international-intent.entity';
import { InternationalIntentRecord, mapInternationalIntent } from './international-intent.mapper';
import { INTERNATIONAL_INTENT_STATES, InternationalIntentStatus } from './international-intent.states';
import { InternationalIntentStateConflictError } from './international-intents.errors';
import { INTERNATIONAL_JOBS } from './international-intents.jobs';
import { railHolding, transitionPosting } from './international-postings';

type IntentExtra = Partial<Pick<InternationalIntentEntity, 'adminNote' | 'bridgeTransferId' | 'payoutId' | 'payoutConfirmation' | 'processedAt' | 'settledAt'>>;

export type IntentMove = StatusMove<InternationalIntentStatus, IntentExtra>;
/** What an event of an intent is built from: the intent as a transaction holds it. */
type EventSource = InternationalIntentRecord & Pick<InternationalIntentEntity, 'merchantId'>;

/** Every step is a `status_changed`; the two ends also have their own type. */
function eventsOf(to: InternationalIntentStatus): EventType[] {
  const step: EventType = 'international_payment_intent.status_changed';
  if (to === 'settled') return [step, 'international_payment_intent.settled'];
  if (to === 'rejected') return [step, 'international_payment_intent.rejected'];
  return [step];
}

/**
 * The only code that changes an international payment intent's status, and the one that records
 * its events; `apply` also posts the money of the move (`transitionPosting`) in the same
 * transaction, so no move happens without its money and no money moves twice. The postings go
 * last, right before COMMIT (`postAtCommit`): a worker's transaction often makes two or three
 * moves, and the merchant's `reserved` row would otherwise stay locked through all of them.
 */
@Injectable()
export class InternationalIntentStates extends StatusStates<InternationalIntentEntity, InternationalIntentStatus, IntentExtra> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly outbox: Outbox,
    private readonly events: EventsService,
  ) {
    super({
      entity: InternationalIntentEntity,
      history: InternationalIntentStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ intentId: resourceId, fromStatus, toStatus, cause }),
      machine: INTERNATIONAL_INTENT_STATES,
      events: eventsOf,
      refuse: (from, to) => new InternationalIntentStateConflictError(from, to),
    });
  }

  override async applyAll(manager: EntityManager, intent: InternationalIntentEntity, moves: ReadonlyArray<IntentMove>): Promise<InternationalIntentEntity[]> {
    let from = intent.status;
    const states = await super.applyAll(manager, intent, moves);
    // Each move that changed the status posts its money.
    for (const { status } of states) {
      const posting = transitionPosting(intent, from, status);
      if (posting) this.ledger.postAtCommit(manager, posting);
      from = status;
    }
    return states;
  }

  /**
   * The intent's events, its object mapped as GET maps it from the intent as this transaction holds
   * it: the row locked with each move's update applied (`applyAll`), or the one just inserted.
   * Nothing else writes the row meanwhile, so reading it back would return the same object.
   */
  override emit(manager: EntityManager, intent: EventSource, types: readonly EventType[]): Promise<void> {
    return this.emitMoves(manager, [{ resource: intent, types }]);
  }

  /** The events of moves made together, each with the intent as its move left it, in one INSERT. */
  protected override async emitMoves(manager: EntityManager, moments: ReadonlyArray<{ resource: EventSource; types: readonly string[] }>): Promise<void> {
    await this.events.record(
      manager,
      ...moments.flatMap(({ resource: intent, types }) => {
        const object = mapInternationalIntent(intent, this.config.publicBaseUrl);
        // Every type here comes from `eventsOf` or a caller of `emit`: event types all.
        return (types as readonly EventType[]).map((type) => ({ merchantId: intent.merchantId, type, objectId: intent.id, object }));
      }),
    );
  }

  /**
   * Locks the intent and runs `change` only while it is still `expected`, in a transaction of its
   * own. Resolves with the intent as the transaction left it (whoever moved it), undefined when it
   * does not exist.
   */
  moveFrom(
    id: string,
    expected: InternationalIntentStatus,
    change: (manager: EntityManager, intent: InternationalIntentEntity) => Promise<unknown>,
  ): Promise<InternationalIntentEntity | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const intent = await this.lock(manager, id);
      if (intent?.status === expected) await change(manager, intent);
      return intent ?? undefined;
    });
  }

  /**
   * To `rejected` with the note; the move gives the merchant its whole `sourceAmount` back
   * (`transitionPosting`), and money that had reached a rail is asked back from it
   * (`InternationalRecovery`). `processedAt` is set when it leaves `processing`.
   */
  async reject(manager: EntityManager, intent: InternationalIntentEntity, cause: string, note: string): Promise<void> {
    const from = intent.status;
    await this.apply(manager, intent, 'rejected', cause, { adminNote: note, ...(from === 'processing' && { processedAt: new Date() }) });
    // Money that had reached a rail is asked back, in the transaction that decided it; so is a
    // bridge transfer the rail may hold in review while the intent is still `processing`.
    const held = railHolding(from);
    const rail = held ?? (from === 'processing' ? 'bridge_rail' : undefined);
    if (rail) await this.outbox.enqueue(manager, INTERNATIONAL_JOBS.recover, { intentId: intent.id, rail });
    if (held) await this.emit(manager, intent, ['international_payment_intent.receivable_opened']);
  }
}
