import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transitions } from '../../common/state-machine/state-machine';
import { WithdrawalStatusHistoryEntity } from './withdrawal-status-history.entity';
import { WithdrawalEntity } from './withdrawal.entity';
import { WITHDRAWAL_STATES, WithdrawalStatus } from './withdrawal.states';
import { WithdrawalStateConflictError } from './withdrawals.errors';

type WithdrawalExtra = Partial<Pick<WithdrawalEntity, 'railPayoutId' | 'failureCode' | 'failureMessage' | 'completedAt'>>;

/** The only code that changes a withdrawal's status: `lock` in the caller's transaction, then `apply`. */
@Injectable()
export class WithdrawalStates {
  private readonly transitions = new Transitions<WithdrawalEntity, 'status'>({
    entity: WithdrawalEntity,
    history: WithdrawalStatusHistoryEntity,
    historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ withdrawalId: resourceId, fromStatus, toStatus, cause }),
    fields: { status: { property: 'status', machine: WITHDRAWAL_STATES } },
    refuse: (_field, from, to) => new WithdrawalStateConflictError(from, to),
  });

  lock(manager: EntityManager, id: string): Promise<WithdrawalEntity | null> {
    return this.transitions.lock(manager, id);
  }

  apply(manager: EntityManager, withdrawal: WithdrawalEntity, status: WithdrawalStatus, cause: string, extra: WithdrawalExtra = {}): Promise<WithdrawalEntity> {
    return this.transitions.apply(manager, withdrawal, { status }, cause, extra);
  }
}
