import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { StatementPart } from '../../common/persistence/statement-part';
import { StatusStates } from '../../common/state-machine/status-transitions.repository';
import { EventsService, EventType } from '../events';
import { mapPaymentIntent } from './payment-intent.mapper';
import type { PaymentIntentDto } from './dto/payment-intent.response';
import { PaymentIntentStatusHistoryEntity } from './payment-intent-status-history.entity';
import { PaymentIntentEntity } from './payment-intent.entity';
import { PAYMENT_INTENT_STATES, PaymentIntentStatus } from './payment-intent.states';
import { PaymentIntentStateConflictError } from './payment-intents.errors';
import { PaymentIntentsRepository } from './payment-intents.repository';

type IntentExtra = Partial<Pick<PaymentIntentEntity, 'fundedAt' | 'confirmedAt' | 'amountReceived'>>;

/** The moves a merchant hears of: each records its event with the move. */
const EVENT_OF: Partial<Record<PaymentIntentStatus, EventType>> = {
  funds_received: 'payment_intent.funds_received',
  succeeded: 'payment_intent.succeeded',
  expired: 'payment_intent.expired',
};

/** The only code that changes a payment intent's status, and the one that records its events. */
@Injectable()
export class PaymentIntentStates extends StatusStates<PaymentIntentEntity, PaymentIntentStatus, IntentExtra> {
  constructor(
    private readonly repository: PaymentIntentsRepository,
    private readonly events: EventsService,
  ) {
    super({
      entity: PaymentIntentEntity,
      history: PaymentIntentStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ paymentIntentId: resourceId, fromStatus, toStatus, cause }),
      machine: PAYMENT_INTENT_STATES,
      events: (to) => (EVENT_OF[to] ? [EVENT_OF[to]] : []),
      refuse: (from, to) => new PaymentIntentStateConflictError(from, to),
    });
  }

  /**
   * A new intent's `payment_intent.created` event, as a part of the statement inserting it (see
   * `StatementPart`), written when that statement's CTE `after` has a row; `created` is its answer.
   */
  createdPart(intent: Pick<PaymentIntentEntity, 'id' | 'merchantId'>, created: PaymentIntentDto, after: string): StatementPart {
    return this.events.recordPart(after, { merchantId: intent.merchantId, type: 'payment_intent.created', objectId: intent.id, object: created });
  }

  /** The intent's events, its object read in this transaction as GET reads it. */
  override async emit(manager: EntityManager, intent: Pick<PaymentIntentEntity, 'id' | 'merchantId'>, types: readonly EventType[]): Promise<void> {
    const object = mapPaymentIntent(await this.repository.read(manager, intent.id));
    await this.events.record(manager, ...types.map((type) => ({ merchantId: intent.merchantId, type, objectId: intent.id, object })));
  }
}
