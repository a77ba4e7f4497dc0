import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PoboBusinessEntity } from '../pobo-businesses/pobo-business.entity';
import { AgreementStatus, canTransition, KybStatus, NairaCollectionStatus, PendingRequirement, StatusField } from '../pobo-businesses/pobo-business.states';
import { BusinessStatusHistoryEntity } from './business-status-history.entity';
import { InvalidTransitionError } from './business-states.errors';

export interface StatusChange {
  agreement?: AgreementStatus;
  kyb?: KybStatus;
  naira_collection?: NairaCollectionStatus;
}

const COLUMN: Record<StatusField, 'agreementStatus' | 'kybStatus' | 'nairaCollectionStatus'> = {
  agreement: 'agreementStatus',
  kyb: 'kybStatus',
  naira_collection: 'nairaCollectionStatus',
};

/**
 * Applies status changes to a business inside the caller's transaction. The caller must hold
 * the business row locked (`lockBusiness`), so concurrent changes are serialised.
 */
@Injectable()
export class BusinessStatesService {
  async lockBusiness(manager: EntityManager, businessId: string): Promise<PoboBusinessEntity | null> {
    return manager.findOne(PoboBusinessEntity, { where: { id: businessId }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Validates every change against `TRANSITIONS`, writes them and their history, and returns the
   * updated business. A change to the current status is a no-op, not an error.
   */
  async apply(
    manager: EntityManager,
    business: PoboBusinessEntity,
    change: StatusChange,
    cause: string,
    extra: Partial<Pick<PoboBusinessEntity, 'kybPendingRequirements' | 'kybLastSyncedAt' | 'agreementAcceptedAt'>> & {
      kybPendingRequirements?: PendingRequirement[];
    } = {},
  ): Promise<PoboBusinessEntity> {
    const history: Partial<BusinessStatusHistoryEntity>[] = [];
    const update: Partial<PoboBusinessEntity> = { ...extra };
    for (const field of Object.keys(change) as StatusField[]) {
      const to = change[field]!;
      const from = business[COLUMN[field]];
      if (from === to) continue;
      if (!canTransition(field, from, to)) throw new InvalidTransitionError(field, from, to);
      Object.assign(update, { [COLUMN[field]]: to });
      history.push({ businessId: business.id, field, fromStatus: from, toStatus: to, cause });
    }
    if (Object.keys(update).length === 0) return business;
    update.updatedAt = new Date();
    await manager.update(PoboBusinessEntity, { id: business.id }, update);
    if (history.length > 0) await manager.insert(BusinessStatusHistoryEntity, history);
    return Object.assign(business, update);
  }
}
