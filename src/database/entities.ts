import { OutboxEntity } from '../jobs/outbox.entity';
import { IdempotencyKeyEntity } from '../modules/idempotency/idempotency-key.entity';
import { InternationalIntentStatusHistoryEntity } from '../modules/international-intents/international-intent-status-history.entity';
import { InternationalIntentEntity } from '../modules/international-intents/international-intent.entity';
import { QuoteEntity } from '../modules/international-intents/quote.entity';
import { BalanceTransactionEntity } from '../modules/ledger/balance-transaction.entity';
import { LedgerAccountEntity } from '../modules/ledger/ledger-account.entity';
import { LedgerEntryEntity } from '../modules/ledger/ledger-entry.entity';
import { LedgerTransactionEntity } from '../modules/ledger/ledger-transaction.entity';
import { InboundPaymentEntity } from '../modules/payment-intents/inbound-payment.entity';
import { PaymentIntentStatusHistoryEntity } from '../modules/payment-intents/payment-intent-status-history.entity';
import { PaymentIntentEntity } from '../modules/payment-intents/payment-intent.entity';
import { RailEventCursorEntity } from '../modules/rail-events/rail-event-cursor.entity';
import { RailEventEntity } from '../modules/rail-events/rail-event.entity';
import { WithdrawalStatusHistoryEntity } from '../modules/withdrawals/withdrawal-status-history.entity';
import { WithdrawalEntity } from '../modules/withdrawals/withdrawal.entity';
import { AgreementAcceptanceEntity } from '../modules/agreements/agreement-acceptance.entity';
import { AgreementLinkEntity } from '../modules/agreements/agreement-link.entity';
import { ApiKeyEntity } from '../modules/auth/api-key.entity';
import { MerchantEntity } from '../modules/auth/merchant.entity';
import { DashboardSessionEntity } from '../modules/accounts/dashboard-session.entity';
import { UserEntity } from '../modules/accounts/user.entity';
import { AccountTokenEntity } from '../modules/accounts/account-token.entity';
import { InvitationEntity } from '../modules/accounts/invitation.entity';
import { RecoveryCodeEntity } from '../modules/accounts/recovery-code.entity';
import { TeamSettingsEntity } from '../modules/accounts/team-settings.entity';
import { AuditEntryEntity } from '../modules/audit/audit-entry.entity';
import { KybApplicationEntity } from '../modules/kyb/kyb-application.entity';
import { KybDocumentChunkEntity } from '../modules/kyb/kyb-document-chunk.entity';
import { KybDocumentEntity } from '../modules/kyb/kyb-document.entity';
import { CollectionEntity } from '../modules/naira/collection.entity';
import { NairaAccountEntity } from '../modules/naira/naira-account.entity';
import { BusinessStatusHistoryEntity } from '../modules/pobo-businesses/business-status-history.entity';
import { PoboBusinessEntity } from '../modules/pobo-businesses/pobo-business.entity';
import { VaultChainCursorEntity } from '../modules/vault/vault-chain-cursor.entity';
import { VaultTransactionEntity } from '../modules/vault/vault-transaction.entity';
import { VaultTransferEntity } from '../modules/vault/vault-transfer.entity';
import { VaultTransferStatusHistoryEntity } from '../modules/vault/vault-transfer-status-history.entity';
import { VaultTransactionStatusHistoryEntity } from '../modules/vault/vault-transaction-status-history.entity';

/**
 * Every entity, listed explicitly so source (ts-jest) and build output load the same set. The
 * one place outside its module that names an entity: each table's owner is the module it sits in.
 */
export const ENTITIES = [
  MerchantEntity,
  ApiKeyEntity,
  UserEntity,
  DashboardSessionEntity,
  InvitationEntity,
  AccountTokenEntity,
  RecoveryCodeEntity,
  TeamSettingsEntity,
  AuditEntryEntity,
  PoboBusinessEntity,
  BusinessStatusHistoryEntity,
  AgreementLinkEntity,
  AgreementAcceptanceEntity,
  KybApplicationEntity,
  KybDocumentEntity,
  KybDocumentChunkEntity,
  NairaAccountEntity,
  CollectionEntity,
  OutboxEntity,
  IdempotencyKeyEntity,
  LedgerAccountEntity,
  LedgerTransactionEntity,
  LedgerEntryEntity,
  BalanceTransactionEntity,
  PaymentIntentEntity,
  InboundPaymentEntity,
  PaymentIntentStatusHistoryEntity,
  WithdrawalEntity,
  WithdrawalStatusHistoryEntity,
  RailEventEntity,
  RailEventCursorEntity,
  QuoteEntity,
  InternationalIntentEntity,
  InternationalIntentStatusHistoryEntity,
  VaultTransactionEntity,
  VaultChainCursorEntity,
  VaultTransferEntity,
  VaultTransferStatusHistoryEntity,
  VaultTransactionStatusHistoryEntity,
];
