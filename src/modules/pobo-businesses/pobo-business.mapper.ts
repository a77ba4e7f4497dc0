import { PoboBusinessDto } from './dto/pobo-business.response';
import { PoboBusinessEntity } from './pobo-business.entity';

type Timestamps = 'kybLastSyncedAt' | 'createdAt' | 'updatedAt';

/**
 * What the mapper needs: an entity, or a raw row selected with the entity's property names.
 * Raw rows carry timestamps already as ISO-8601 text (formatted by PostgreSQL), which spares
 * the hot read paths a Date object per timestamp.
 */
export type PoboBusinessRecord = Omit<PoboBusinessFields, Timestamps> & {
  kybLastSyncedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
};

type PoboBusinessFields = Pick<
  PoboBusinessEntity,
  | 'id'
  | 'businessName'
  | 'country'
  | 'allowNairaCollection'
  | 'nairaCollectionStatus'
  | 'nairaAccountNumber'
  | 'nairaAccountName'
  | 'nairaBankName'
  | 'nairaBankCode'
  | 'walletIndex'
  | 'evmAddress'
  | 'svmAddress'
  | 'agreementStatus'
  | 'kybStatus'
  | 'kybPendingRequirements'
  | 'kybLastSyncedAt'
  | 'createdAt'
  | 'updatedAt'
>;

const iso = (value: Date | string) => (typeof value === 'string' ? value : value.toISOString());

export function mapPoboBusiness(record: PoboBusinessRecord, agreementUrl?: string): PoboBusinessDto {
  return {
    poboUserId: record.id,
    businessName: record.businessName,
    country: record.country,
    allowNairaCollection: record.allowNairaCollection,
    nairaCollectionStatus: record.nairaCollectionStatus,
    nairaAccount: nairaAccountOf(record),
    wallets: { evm: { address: record.evmAddress }, svm: { address: record.svmAddress } },
    agreement: agreementUrl ? { status: record.agreementStatus, url: agreementUrl } : { status: record.agreementStatus },
    kyb: {
      status: record.kybStatus,
      pendingRequirements: record.kybPendingRequirements,
      lastSyncedAt: record.kybLastSyncedAt ? iso(record.kybLastSyncedAt) : null,
    },
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
  };
}

/** The business's Naira account while collection is active and its details are complete; null otherwise. */
function nairaAccountOf(record: PoboBusinessRecord): PoboBusinessDto['nairaAccount'] {
  const { nairaCollectionStatus, nairaAccountNumber, nairaAccountName, nairaBankName, nairaBankCode } = record;
  if (nairaCollectionStatus !== 'active' || nairaAccountNumber === null || nairaAccountName === null || nairaBankName === null || nairaBankCode === null)
    return null;
  return { accountNumber: nairaAccountNumber, accountName: nairaAccountName, bankName: nairaBankName, bankCode: nairaBankCode };
}
