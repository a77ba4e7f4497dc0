import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transitions } from '../../common/state-machine/status-transitions.repository';
import { EventsService, EventType } from '../events';
import { BusinessStatusHistoryEntity } from './business-status-history.entity';
import { PoboBusinessEntity } from './pobo-business.entity';
import { mapPoboBusiness } from './pobo-business.mapper';
import { PoboBusinessesRepository } from './pobo-businesses.repository';
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
 * `lock` the row in the caller's transaction, then `apply` the moves with their cause. It also
 * records the events a merchant hears of them, in that transaction: the agreement accepted, every
 * KYB move, the Naira account active.
 */
@Injectable()
export class PoboBusinessStates {
  constructor(
    private readonly repository: PoboBusinessesRepository,
    private readonly events: EventsService,
  ) {}

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

  async apply(
    manager: EntityManager,
    business: PoboBusinessEntity,
    change: BusinessStatusChange,
    cause: string,
    extra: BusinessExtra = {},
  ): Promise<PoboBusinessEntity> {
    const before = { agreement: business.agreementStatus, kyb: business.kybStatus, naira: business.nairaCollectionStatus };
    const moved = await this.transitions.apply(manager, business, change, cause, extra);
    const types: EventType[] = [];
    if (moved.agreementStatus !== before.agreement && moved.agreementStatus === 'accepted') types.push('pobo_business.agreement_accepted');
    if (moved.kybStatus !== before.kyb) types.push('pobo_business.kyb_status_changed');
    if (moved.nairaCollectionStatus !== before.naira && moved.nairaCollectionStatus === 'active') types.push('pobo_business.naira_account_activated');
    if (types.length > 0) {
      const object = mapPoboBusiness(await this.repository.read(manager, moved.id));
      await this.events.record(manager, ...types.map((type) => ({ merchantId: moved.merchantId, type, objectId: moved.id, object })));
    }
    return moved;
  }
}
