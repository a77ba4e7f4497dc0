import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { MerchantEntity } from './merchant.entity';

export type NewApiKey = Pick<ApiKeyEntity, 'id' | 'merchantId' | 'keyHash' | 'keyHint'>;

/**
 * The operator's reads and writes of `merchants` and `api_keys`; the per-request key lookup is
 * `ApiKeysRepository`'s prepared statement.
 */
@Injectable()
export class MerchantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A merchant and its first key, in one transaction. */
  async insertWithKey(merchant: Pick<MerchantEntity, 'id' | 'name'>, key: NewApiKey): Promise<void> {
    await this.dataSource.transaction(async (manager: EntityManager) => {
      await manager.insert(MerchantEntity, merchant);
      await manager.insert(ApiKeyEntity, key);
    });
  }

  /** A merchant alone, in the caller's transaction (a dashboard sign-up adds its first user in it). */
  async insertMerchant(manager: EntityManager, merchant: Pick<MerchantEntity, 'id' | 'name'>): Promise<void> {
    await manager.insert(MerchantEntity, merchant);
  }

  findMerchant(merchantId: string): Promise<MerchantEntity | null> {
    return this.dataSource.manager.findOneBy(MerchantEntity, { id: merchantId });
  }

  exists(merchantId: string): Promise<boolean> {
    return this.dataSource.manager.existsBy(MerchantEntity, { id: merchantId });
  }

  async insertKey(key: NewApiKey): Promise<void> {
    await this.dataSource.manager.insert(ApiKeyEntity, key);
  }

  /** Revokes the key unless it already is; its revocation time either way, or null when there is no such key. */
  async revokeKey(apiKeyId: string, at: Date): Promise<Date | null> {
    const result = await this.dataSource.manager.update(ApiKeyEntity, { id: apiKeyId, revokedAt: IsNull() }, { revokedAt: at });
    if (result.affected) return at;
    const key = await this.dataSource.manager.findOneBy(ApiKeyEntity, { id: apiKeyId });
    return key?.revokedAt ?? null;
  }
}
