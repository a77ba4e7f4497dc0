import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { generateApiKey } from './api-key.codec';
import { ApiKeyNotFoundError, MerchantNotFoundError } from './auth.errors';
import { MerchantsRepository, NewApiKey } from './merchants.repository';

export interface Merchant {
  merchantId: string;
  name: string;
}

export interface IssuedKey {
  merchantId: string;
  apiKeyId: string;
  /** Shown once, never stored. */
  apiKey: string;
}

/** Merchants and their keys: the operator's commands, and the dashboard's sign-up. */
@Injectable()
export class MerchantsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: MerchantsRepository,
  ) {}

  /** A merchant and its first key: one transaction. */
  async createMerchant(name: string): Promise<IssuedKey> {
    return this.dataSource.transaction(async (manager) => {
      const { merchantId } = await this.createInTransaction(manager, name);
      const { row, issued } = this.newKey(merchantId);
      await this.repository.insertKey(row, manager);
      return issued;
    });
  }

  /** A merchant without a key, in the caller's transaction: a dashboard sign-up creates its owner with it. */
  async createInTransaction(manager: EntityManager, name: string): Promise<Merchant> {
    const merchantId = newId('mer');
    await this.repository.insertMerchant(manager, { id: merchantId, name });
    return { merchantId, name };
  }

  async find(merchantId: string): Promise<Merchant | undefined> {
    const merchant = await this.repository.findMerchant(merchantId);
    return merchant ? { merchantId: merchant.id, name: merchant.name } : undefined;
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
