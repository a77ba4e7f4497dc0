import { PoboBusinessDto } from './dto/pobo-business.response';
import { PoboBusinessEntity } from './pobo-business.entity';

/** What the mapper needs: an entity, or a raw row selected with the entity's property names. */
export type PoboBusinessRecord = Pick<
  PoboBusinessEntity,
  | 'id'
  | 'businessName'
  | 'country'
  | 'allowNairaCollection'
  | 'nairaCollectionStatus'
  | 'evmAddress'
  | 'svmAddress'
  | 'agreementStatus'
  | 'kybStatus'
  | 'kybPendingRequirements'
  | 'kybLastSyncedAt'
  | 'createdAt'
  | 'updatedAt'
>;

/** The SQL select list producing a `PoboBusinessRecord` (plus `seq` for paging). */
export const POBO_BUSINESS_COLUMNS = `id, seq, business_name AS "businessName", country,
  allow_naira_collection AS "allowNairaCollection", naira_collection_status AS "nairaCollectionStatus",
  evm_address AS "evmAddress", svm_address AS "svmAddress", agreement_status AS "agreementStatus",
  kyb_status AS "kybStatus", kyb_pending_requirements AS "kybPendingRequirements",
  kyb_last_synced_at AS "kybLastSyncedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function mapPoboBusiness(record: PoboBusinessRecord, agreementUrl?: string): PoboBusinessDto {
  return {
    poboUserId: record.id,
    businessName: record.businessName,
    country: record.country,
    allowNairaCollection: record.allowNairaCollection,
    nairaCollectionStatus: record.nairaCollectionStatus,
    wallets: { evm: { address: record.evmAddress }, svm: { address: record.svmAddress } },
    agreement: agreementUrl ? { status: record.agreementStatus, url: agreementUrl } : { status: record.agreementStatus },
    kyb: {
      status: record.kybStatus,
      pendingRequirements: record.kybPendingRequirements,
      lastSyncedAt: record.kybLastSyncedAt ? record.kybLastSyncedAt.toISOString() : null,
    },
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}
