import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { StatusStates } from '../../common/state-machine/status-transitions.repository';
import { EventsService, EventType } from '../events';
import { mapWithdrawal } from './withdrawal.mapper';
import { WithdrawalStatusHistoryEntity } from './withdrawal-status-history.entity';
import { WithdrawalEntity } from './withdrawal.entity';
import { WITHDRAWAL_STATES, WithdrawalStatus } from './withdrawal.states';
import { WithdrawalStateConflictError } from './withdrawals.errors';
import { WithdrawalsRepository } from './withdrawals.repository';

type WithdrawalExtra = Partial<Pick<WithdrawalEntity, 'railPayoutId' | 'failureCode' | 'failureMessage' | 'completedAt'>>;

/** The moves a merchant hears of: each records its event with the move. */
const EVENT_OF: Partial<Record<WithdrawalStatus, EventType>> = { succeeded: 'withdrawal.succeeded', failed: 'withdrawal.failed' };

/** The only code that changes a withdrawal's status, and the one that records its events. */
@Injectable()
export class WithdrawalStates extends StatusStates<WithdrawalEntity, WithdrawalStatus, WithdrawalExtra> {
  constructor(
    private readonly repository: WithdrawalsRepository,
    private readonly events: EventsService,
  ) {
    super({
      entity: WithdrawalEntity,
      history: WithdrawalStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ withdrawalId: resourceId, fromStatus, toStatus, cause }),
      machine: WITHDRAWAL_STATES,
      events: (to) => (EVENT_OF[to] ? [EVENT_OF[to]] : []),
      refuse: (from, to) => new WithdrawalStateConflictError(from, to),
    });
  }

  /** The withdrawal's event, its object read in this transaction as GET reads it. */
  override async emit(manager: EntityManager, withdrawal: Pick<WithdrawalEntity, 'id' | 'merchantId'>, types: readonly EventType[]): Promise<void> {
    const object = mapWithdrawal(await this.repository.read(manager, withdrawal.id));
    await this.events.record(manager, ...types.map((type) => ({ merchantId: withdrawal.merchantId, type, objectId: withdrawal.id, object })));
  }
}
