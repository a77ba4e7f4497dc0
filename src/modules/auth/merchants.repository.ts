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

  /** A merchant, in the caller's transaction (with its first key, or its dashboard owner). */
  async insertMerchant(manager: EntityManager, merchant: Pick<MerchantEntity, 'id' | 'name'>): Promise<void> {
    await manager.insert(MerchantEntity, merchant);
  }

  findMerchant(merchantId: string): Promise<MerchantEntity | null> {
    return this.dataSource.manager.findOneBy(MerchantEntity, { id: merchantId });
  }

  exists(merchantId: string): Promise<boolean> {
    return this.dataSource.manager.existsBy(MerchantEntity, { id: merchantId });
  }

  /** In `manager`'s transaction when given. */
  async insertKey(key: NewApiKey, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(ApiKeyEntity, key);
  }

  /** Revokes the key unless it already is; its revocation time either way, or null when there is no such key. */
  async revokeKey(apiKeyId: string, at: Date): Promise<Date | null> {
    const result = await this.dataSource.manager.update(ApiKeyEntity, { id: apiKeyId, revokedAt: IsNull() }, { revokedAt: at });
    if (result.affected) return at;
    const key = await this.dataSource.manager.findOneBy(ApiKeyEntity, { id: apiKeyId });
    return key?.revokedAt ?? null;
  }
}
