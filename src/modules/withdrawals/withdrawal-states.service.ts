import { Injectable } from '@nestjs/common';
import { StatusStates } from '../../common/state-machine/status-transitions.repository';
import { WithdrawalStatusHistoryEntity } from './withdrawal-status-history.entity';
import { WithdrawalEntity } from './withdrawal.entity';
import { WITHDRAWAL_STATES, WithdrawalStatus } from './withdrawal.states';
import { WithdrawalStateConflictError } from './withdrawals.errors';

type WithdrawalExtra = Partial<Pick<WithdrawalEntity, 'railPayoutId' | 'failureCode' | 'failureMessage' | 'completedAt'>>;

/** The only code that changes a withdrawal's status. */
@Injectable()
export class WithdrawalStates extends StatusStates<WithdrawalEntity, WithdrawalStatus, WithdrawalExtra> {
  constructor() {
    super({
      entity: WithdrawalEntity,
      history: WithdrawalStatusHistoryEntity,
      historyRow: ({ resourceId, fromStatus, toStatus, cause }) => ({ withdrawalId: resourceId, fromStatus, toStatus, cause }),
      machine: WITHDRAWAL_STATES,
      refuse: (from, to) => new WithdrawalStateConflictError(from, to),
    });
  }
}
