import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transitions } from '../../common/state-machine/status-transitions.repository';
import { BusinessStatusHistoryEntity } from './business-status-history.entity';
import { PoboBusinessEntity } from './pobo-business.entity';
import { AGREEMENT_STATES, AgreementStatus, KYB_STATES, KybStatus, NAIRA_COLLECTION_STATES, NairaCollectionStatus } from './pobo-business.states';
import { BusinessStateConflictError } from './pobo-businesses.errors';

export interface BusinessStatusChange {
  agreement?: AgreementStatus;
  kyb?: KybStatus;
  naira_collection?: NairaCollectionStatus;
}

type BusinessExtra = Partial<
  Pick<
    PoboBusinessEntity,
    | 'kybPendingRequirements'
    | 'kybLastSyncedAt'
    | 'agreementAcceptedAt'
    | 'allowNairaCollection'
    | 'nairaAccountNumber'
    | 'nairaAccountName'
    | 'nairaBankName'
    | 'nairaBankCode'
  >
>;

/**
 * The only code that changes a business's statuses, for every module (agreements, KYB, Naira):
 * `lock` the row in the caller's transaction, then `apply` the moves with their cause.
 */
@Injectable()
export class PoboBusinessStates {
  private readonly transitions = new Transitions<PoboBusinessEntity, keyof BusinessStatusChange>({
    entity: PoboBusinessEntity,
    history: BusinessStatusHistoryEntity,
    historyRow: ({ resourceId, ...move }) => ({ businessId: resourceId, ...move }),
    fields: {
      agreement: { property: 'agreementStatus', machine: AGREEMENT_STATES },
      kyb: { property: 'kybStatus', machine: KYB_STATES },
      naira_collection: { property: 'nairaCollectionStatus', machine: NAIRA_COLLECTION_STATES },
    },
    refuse: (field, from, to) => new BusinessStateConflictError(field, from, to),
  });

  lock(manager: EntityManager, businessId: string): Promise<PoboBusinessEntity | null> {
    return this.transitions.lock(manager, businessId);
  }

  apply(
    manager: EntityManager,
    business: PoboBusinessEntity,
    change: BusinessStatusChange,
    cause: string,
    extra: BusinessExtra = {},
  ): Promise<PoboBusinessEntity> {
    return this.transitions.apply(manager, business, change, cause, extra);
  }
}
