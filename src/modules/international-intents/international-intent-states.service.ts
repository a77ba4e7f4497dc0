import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { StatusStates } from '../../common/state-machine/status-transitions.repository';
import { LedgerService } from '../ledger';
import { InternationalIntentStatusHistoryEntity } from './international-intent-status-history.entity';
import { InternationalIntentEntity } from './international-intent.entity';
import { INTERNATIONAL_INTENT_STATES, InternationalIntentStatus } from './international-intent.states';
import { InternationalIntentStateConflictError } from './international-intents.errors';
import { transitionPosting } from './international-postings';

type IntentExtra = Partial<Pick<InternationalIntentEntity, 'adminNote' | 'bridgeTransferId' | 'payoutId' | 'payoutConfirmation' | 'processedAt' | 'settledAt'>>;

/**
 * The only code that changes an international payment intent's status; `apply` also posts the
 * money of the move (`transitionPosting`) in the same transaction, so no move happens without its
 * money and no money moves twice.
 */
@Injectable()
export class InternationalIntentStates extends StatusStates<InternationalIntentEntity, InternationalIntentStatus, IntentExtra> {
  constructor(private readonly ledger: LedgerService) {
    super({
      entity: InternationalIntentEntity,
      history: InternationalIntentStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ intentId: resourceId, fromStatus, toStatus, cause }),
      machine: INTERNATIONAL_INTENT_STATES,
      refuse: (from, to) => new InternationalIntentStateConflictError(from, to),
    });
  }

  override async apply(
    manager: EntityManager,
    intent: InternationalIntentEntity,
    status: InternationalIntentStatus,
    cause: string,
    extra: IntentExtra = {},
  ): Promise<InternationalIntentEntity> {
    const from = intent.status;
    const moved = await super.apply(manager, intent, status, cause, extra);
    const posting = transitionPosting(moved, from, status);
    if (posting) await this.ledger.post(manager, posting);
    return moved;
  }
}
