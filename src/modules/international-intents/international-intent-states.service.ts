import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transitions } from '../../common/state-machine/state-machine';
import { InternationalIntentStatusHistoryEntity } from './international-intent-status-history.entity';
import { InternationalIntentEntity } from './international-intent.entity';
import { INTERNATIONAL_INTENT_STATES, InternationalIntentStatus } from './international-intent.states';
import { InternationalIntentStateConflictError } from './international-intents.errors';

type IntentExtra = Partial<Pick<InternationalIntentEntity, 'adminNote' | 'bridgeTransferId' | 'payoutId' | 'payoutConfirmation' | 'processedAt' | 'settledAt'>>;

/** The only code that changes an international payment intent's status: `lock` in the caller's transaction, then `apply`. */
@Injectable()
export class InternationalIntentStates {
  private readonly transitions = new Transitions<InternationalIntentEntity, 'status'>({
    entity: InternationalIntentEntity,
    history: InternationalIntentStatusHistoryEntity,
    historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ intentId: resourceId, fromStatus, toStatus, cause }),
    fields: { status: { property: 'status', machine: INTERNATIONAL_INTENT_STATES } },
    refuse: (_field, from, to) => new InternationalIntentStateConflictError(from, to),
  });

  lock(manager: EntityManager, id: string): Promise<InternationalIntentEntity | null> {
    return this.transitions.lock(manager, id);
  }

  apply(manager: EntityManager, intent: InternationalIntentEntity, status: InternationalIntentStatus, cause: string, extra: IntentExtra = {}): Promise<InternationalIntentEntity> {
    return this.transitions.apply(manager, intent, { status }, cause, extra);
  }
}
