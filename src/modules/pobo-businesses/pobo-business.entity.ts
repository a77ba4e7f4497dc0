import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import {
  AGREEMENT_STATES,
  AgreementStatus,
  KYB_STATES,
  KybStatus,
  NAIRA_COLLECTION_STATES,
  NairaCollectionStatus,
  PendingRequirement,
} from './pobo-business.states';

// The dashboard search's indexes: made by the DashboardSearch migration (expressions TypeORM cannot declare).
@Index('idx_pobo_businesses_search_name', { synchronize: false })
@Entity({ name: 'pobo_businesses' })
@Index('idx_pobo_businesses_merchant_seq', ['merchantId', 'seq'])
@Check('chk_pobo_businesses_naira_status', `"naira_collection_status" IN (${NAIRA_COLLECTION_STATES.sqlList()})`)
@Check('chk_pobo_businesses_agreement_status', `"agreement_status" IN (${AGREEMENT_STATES.sqlList()})`)
@Check('chk_pobo_businesses_kyb_status', `"kyb_status" IN (${KYB_STATES.sqlList()})`)
export class PoboBusinessEntity {
  /** Public identifier (`poboUserId`): `pobo_` + 24 hex characters. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** Insertion order, for the list's newest-first keyset paging. Never exposed: the cursor is a business's public id. */
  @Column({ type: 'bigint', generated: 'increment' })
  seq: string;

  @Column({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ name: 'business_name', type: 'text' })
  businessName: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber: string;

  @Column({ type: 'char', length: 2 })
  country: string;

  @Column({ name: 'allow_naira_collection', type: 'boolean', default: false })
  allowNairaCollection: boolean;

  @Column({ name: 'naira_collection_status', type: 'varchar', length: 32, default: 'not_requested' })
  nairaCollectionStatus: NairaCollectionStatus;

  /**
   * The business's own Naira account while collection is `active`, as the business object shows it
   * (`nairaAccount`): null before, and once an operator closed it. Set only with the status, by
   * the Naira module through `PoboBusinessStates`.
   */
  @Column({ name: 'naira_account_number', type: 'text', nullable: true })
  nairaAccountNumber: string | null;

  @Column({ name: 'naira_account_name', type: 'text', nullable: true })
  nairaAccountName: string | null;

  @Column({ name: 'naira_bank_name', type: 'text', nullable: true })
  nairaBankName: string | null;

  @Column({ name: 'naira_bank_code', type: 'text', nullable: true })
  nairaBankCode: string | null;

  /** HD derivation index, drawn from `pobo_wallet_index_seq` so concurrent creates never share one. */
  @Index('uq_pobo_businesses_wallet_index', { unique: true })
  @Column({ name: 'wallet_index', type: 'integer' })
  walletIndex: number;

  @Index('uq_pobo_businesses_evm_address', { unique: true })
  @Column({ name: 'evm_address', type: 'text' })
  evmAddress: string;

  @Index('uq_pobo_businesses_svm_address', { unique: true })
  @Column({ name: 'svm_address', type: 'text' })
  svmAddress: string;

  @Column({ name: 'agreement_status', type: 'varchar', length: 32, default: 'pending' })
  agreementStatus: AgreementStatus;

  @Column({ name: 'agreement_accepted_at', type: 'timestamptz', nullable: true })
  agreementAcceptedAt: Date | null;

  @Column({ name: 'kyb_status', type: 'varchar', length: 32, default: 'agreement_pending' })
  kybStatus: KybStatus;

  @Column({ name: 'kyb_pending_requirements', type: 'jsonb', default: () => "'[]'" })
  kybPendingRequirements: PendingRequirement[];

  @Column({ name: 'kyb_last_synced_at', type: 'timestamptz', nullable: true })
  kybLastSyncedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
