import { OutboxEntity } from '../jobs/outbox.entity';
import { AgreementAcceptanceEntity } from '../modules/agreements/agreement-acceptance.entity';
import { AgreementLinkEntity } from '../modules/agreements/agreement-link.entity';
import { ApiKeyEntity } from '../modules/auth/api-key.entity';
import { MerchantEntity } from '../modules/auth/merchant.entity';
import { KybApplicationEntity } from '../modules/kyb/kyb-application.entity';
import { KybDocumentChunkEntity } from '../modules/kyb/kyb-document-chunk.entity';
import { KybDocumentEntity } from '../modules/kyb/kyb-document.entity';
import { NairaAccountEntity } from '../modules/naira/naira-account.entity';
import { BusinessStatusHistoryEntity } from '../modules/pobo-businesses/business-status-history.entity';
import { PoboBusinessEntity } from '../modules/pobo-businesses/pobo-business.entity';

/**
 * Every entity, listed explicitly so source (ts-jest) and build output load the same set. The
 * one place outside its module that names an entity: each table's owner is the module it sits in.
 */
export const ENTITIES = [
  MerchantEntity,
  ApiKeyEntity,
  PoboBusinessEntity,
  BusinessStatusHistoryEntity,
  AgreementLinkEntity,
  AgreementAcceptanceEntity,
  KybApplicationEntity,
  KybDocumentEntity,
  KybDocumentChunkEntity,
  NairaAccountEntity,
  OutboxEntity,
];
