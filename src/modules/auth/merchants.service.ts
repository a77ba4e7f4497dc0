import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { ApiKeyEntity } from './api-key.entity';
import { generateApiKey } from './api-key.codec';
import { ApiKeyNotFoundError, MerchantNotFoundError } from './auth.errors';
import { MerchantEntity } from './merchant.entity';

export interface IssuedKey {
  merchantId: string;
  apiKeyId: string;
  /** Shown once, never stored. */
  apiKey: string;
}

/** Operator actions on merchants and their keys (used by the CLI, later by the dashboard). */
@Injectable()
export class MerchantsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async createMerchant(name: string): Promise<IssuedKey> {
    return this.dataSource.transaction(async (manager) => {
      const merchant = await manager.save(MerchantEntity, { id: newId('mer'), name });
      return this.insertKey(manager.getRepository(ApiKeyEntity), merchant.id);
    });
  }

  async createKey(merchantId: string): Promise<IssuedKey> {
    const exists = await this.dataSource.getRepository(MerchantEntity).existsBy({ id: merchantId });
    if (!exists) throw new MerchantNotFoundError();
    return this.insertKey(this.dataSource.getRepository(ApiKeyEntity), merchantId);
  }

  /** Revocation is immediate in the database; API processes stop honouring the key within their cache TTL. */
  async revokeKey(apiKeyId: string): Promise<{ apiKeyId: string; revokedAt: Date }> {
    const repository = this.dataSource.getRepository(ApiKeyEntity);
    const revokedAt = new Date();
    const result = await repository.update({ id: apiKeyId, revokedAt: IsNull() }, { revokedAt });
    if (!result.affected) {
      const key = await repository.findOneBy({ id: apiKeyId });
      if (!key?.revokedAt) throw new ApiKeyNotFoundError();
      return { apiKeyId, revokedAt: key.revokedAt };
    }
    return { apiKeyId, revokedAt };
  }

  private async insertKey(repository: Repository<ApiKeyEntity>, merchantId: string): Promise<IssuedKey> {
    const generated = generateApiKey(this.config.apiKeyPrefix);
    const id = newId('key');
    await repository.insert({ id, merchantId, keyHash: generated.hash, keyHint: generated.hint });
    return { merchantId, apiKeyId: id, apiKey: generated.key };
  }
}
