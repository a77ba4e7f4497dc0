import { Inject, Injectable } from '@nestjs/common';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { generateApiKey } from './api-key.codec';
import { ApiKeyNotFoundError, MerchantNotFoundError } from './auth.errors';
import { MerchantsRepository, NewApiKey } from './merchants.repository';

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
    private readonly repository: MerchantsRepository,
  ) {}

  async createMerchant(name: string): Promise<IssuedKey> {
    const merchantId = newId('mer');
    const { row, issued } = this.newKey(merchantId);
    await this.repository.insertWithKey({ id: merchantId, name }, row);
    return issued;
  }

  async createKey(merchantId: string): Promise<IssuedKey> {
    if (!(await this.repository.exists(merchantId))) throw new MerchantNotFoundError();
    const { row, issued } = this.newKey(merchantId);
    await this.repository.insertKey(row);
    return issued;
  }

  /** Revocation is immediate in the database; API processes stop honouring the key within their cache TTL. */
  async revokeKey(apiKeyId: string): Promise<{ apiKeyId: string; revokedAt: Date }> {
    const revokedAt = await this.repository.revokeKey(apiKeyId, new Date());
    if (!revokedAt) throw new ApiKeyNotFoundError();
    return { apiKeyId, revokedAt };
  }

  private newKey(merchantId: string): { row: NewApiKey; issued: IssuedKey } {
    const generated = generateApiKey(this.config.apiKeyPrefix);
    const id = newId('key');
    return { row: { id, merchantId, keyHash: generated.hash, keyHint: generated.hint }, issued: { merchantId, apiKeyId: id, apiKey: generated.key } };
  }
}
