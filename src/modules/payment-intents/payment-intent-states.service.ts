import { Injectable } from '@nestjs/common';
import { StatusStates } from '../../common/state-machine/status-transitions.repository';
import { PaymentIntentStatusHistoryEntity } from './payment-intent-status-history.entity';
import { PaymentIntentEntity } from './payment-intent.entity';
import { PAYMENT_INTENT_STATES, PaymentIntentStatus } from './payment-intent.states';
import { PaymentIntentStateConflictError } from './payment-intents.errors';

type IntentExtra = Partial<Pick<PaymentIntentEntity, 'fundedAt' | 'confirmedAt' | 'amountReceived'>>;

/** The only code that changes a payment intent's status. */
@Injectable()
export class PaymentIntentStates extends StatusStates<PaymentIntentEntity, PaymentIntentStatus, IntentExtra> {
  constructor() {
    super({
      entity: PaymentIntentEntity,
      history: PaymentIntentStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ paymentIntentId: resourceId, fromStatus, toStatus, cause }),
      machine: PAYMENT_INTENT_STATES,
      refuse: (from, to) => new PaymentIntentStateConflictError(from, to),
    });
  }
}
