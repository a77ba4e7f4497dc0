import { AgreementAcceptanceEntity } from '../modules/agreements/agreement-acceptance.entity';
import { AgreementLinkEntity } from '../modules/agreements/agreement-link.entity';
import { ApiKeyEntity } from '../modules/auth/api-key.entity';
import { MerchantEntity } from '../modules/auth/merchant.entity';
import { BusinessStatusHistoryEntity } from '../modules/business-states/business-status-history.entity';
import { KybApplicationEntity } from '../modules/kyb/kyb-application.entity';
import { KybDocumentEntity } from '../modules/kyb/kyb-document.entity';
import { NairaAccountEntity } from '../modules/naira/naira-account.entity';
import { PoboBusinessEntity } from '../modules/pobo-businesses/pobo-business.entity';

/** Every entity, listed explicitly so source (ts-jest) and build output load the same set. */
export const ENTITIES = [
  MerchantEntity,
  ApiKeyEntity,
  PoboBusinessEntity,
  AgreementLinkEntity,
  AgreementAcceptanceEntity,
  BusinessStatusHistoryEntity,
  KybApplicationEntity,
  KybDocumentEntity,
  NairaAccountEntity,
];
