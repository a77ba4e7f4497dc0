import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { StatusStates } from '../../common/state-machine/status-transitions.repository';
import { EventsService, EventType } from '../events';
import { mapWithdrawal, WithdrawalRecord } from './withdrawal.mapper';
import { WithdrawalStatusHistoryEntity } from './withdrawal-status-history.entity';
import { WithdrawalEntity } from './withdrawal.entity';
import { WITHDRAWAL_STATES, WithdrawalStatus } from './withdrawal.states';
import { WithdrawalStateConflictError } from './withdrawals.errors';

type WithdrawalExtra = Partial<Pick<WithdrawalEntity, 'railPayoutId' | 'failureCode' | 'failureMessage' | 'completedAt'>>;

/** The moves a merchant hears of: each records its event with the move. */
const EVENT_OF: Partial<Record<WithdrawalStatus, EventType>> = { succeeded: 'withdrawal.succeeded', failed: 'withdrawal.failed' };

/** The only code that changes a withdrawal's status, and the one that records its events. */
@Injectable()
export class WithdrawalStates extends StatusStates<WithdrawalEntity, WithdrawalStatus, WithdrawalExtra> {
  constructor(private readonly events: EventsService) {
    super({
      entity: WithdrawalEntity,
      history: WithdrawalStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ withdrawalId: resourceId, fromStatus, toStatus, cause }),
      machine: WITHDRAWAL_STATES,
      events: (to) => (EVENT_OF[to] ? [EVENT_OF[to]] : []),
      refuse: (from, to) => new WithdrawalStateConflictError(from, to),
    });
  }

  /**
   * The withdrawal's event, its object mapped as GET maps it from the withdrawal as this
   * transaction holds it: the row locked with the move's update applied, or the one just inserted.
   */
  override async emit(manager: EntityManager, withdrawal: WithdrawalRecord & Pick<WithdrawalEntity, 'merchantId'>, types: readonly EventType[]): Promise<void> {
    const object = mapWithdrawal(withdrawal);
    await this.events.record(manager, ...types.map((type) => ({ merchantId: withdrawal.merchantId, type, objectId: withdrawal.id, object })));
  }
}
