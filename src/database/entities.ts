import { AgreementLinkEntity } from '../modules/agreements/agreement-link.entity';
import { ApiKeyEntity } from '../modules/auth/api-key.entity';
import { MerchantEntity } from '../modules/auth/merchant.entity';
import { PoboBusinessEntity } from '../modules/pobo-businesses/pobo-business.entity';

/** Every entity, listed explicitly so source (ts-jest) and build output load the same set. */
export const ENTITIES = [MerchantEntity, ApiKeyEntity, PoboBusinessEntity, AgreementLinkEntity];
