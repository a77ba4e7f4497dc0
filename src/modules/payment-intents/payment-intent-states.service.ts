import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transitions } from '../../common/state-machine/state-machine';
import { PaymentIntentStatusHistoryEntity } from './payment-intent-status-history.entity';
import { PaymentIntentEntity } from './payment-intent.entity';
import { PAYMENT_INTENT_STATES, PaymentIntentStatus } from './payment-intent.states';
import { PaymentIntentStateConflictError } from './payment-intents.errors';

type IntentExtra = Partial<Pick<PaymentIntentEntity, 'fundedAt' | 'confirmedAt' | 'amountReceived'>>;

/** The only code that changes a payment intent's status: `lock` in the caller's transaction, then `apply`. */
@Injectable()
export class PaymentIntentStates {
  private readonly transitions = new Transitions<PaymentIntentEntity, 'status'>({
    entity: PaymentIntentEntity,
    history: PaymentIntentStatusHistoryEntity,
    historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ paymentIntentId: resourceId, fromStatus, toStatus, cause }),
    fields: { status: { property: 'status', machine: PAYMENT_INTENT_STATES } },
    refuse: (_field, from, to) => new PaymentIntentStateConflictError(from, to),
  });

  lock(manager: EntityManager, id: string): Promise<PaymentIntentEntity | null> {
    return this.transitions.lock(manager, id);
  }

  apply(
    manager: EntityManager,
    intent: PaymentIntentEntity,
    status: PaymentIntentStatus,
    cause: string,
    extra: IntentExtra = {},
  ): Promise<PaymentIntentEntity> {
    return this.transitions.apply(manager, intent, { status }, cause, extra);
  }
}
