import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { KeysetList } from '../../common/persistence/keyset-list';
import { PG_POOL } from '../../common/persistence/pg-pool';
import { ApiKeyEntity } from './api-key.entity';
import type { ApiKeyRow } from './api-key.mapper';
import { MerchantEntity } from './merchant.entity';

export type NewApiKey = Pick<ApiKeyEntity, 'id' | 'merchantId' | 'keyHash' | 'keyHint'> &
  Partial<Pick<ApiKeyEntity, 'name' | 'permissions' | 'createdByUserId' | 'createdByEmail'>>;

const KEY_COLUMNS = `k.id, k.name, k.key_hint AS "keyHint", k.permissions, k.created_by_user_id AS "createdByUserId", k.created_by_email AS "createdByEmail",
  k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt"`;

/**
 * The operator's reads and writes of `merchants` and `api_keys`; the per-request key lookup is
 * `ApiKeysRepository`'s prepared statement.
 */
@Injectable()
export class MerchantsRepository {
  private readonly keys: KeysetList<ApiKeyRow & { id: string }>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PG_POOL) pool: Pool,
  ) {
    this.keys = new KeysetList(pool, 'api_keys', { table: 'api_keys', alias: 'k' }, KEY_COLUMNS);
  }

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

  keysPage(merchantId: string, limit: number, afterId?: string): Promise<ApiKeyRow[] | undefined> {
    return this.keys.page(merchantId, limit, afterId);
  }

  /** The merchant's key, row-locked for a roll or a revocation. */
  lockKey(manager: EntityManager, merchantId: string, apiKeyId: string): Promise<ApiKeyEntity | null> {
    return manager.findOne(ApiKeyEntity, { where: { id: apiKeyId, merchantId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Ends the key at `at`: revoked now, or (a roll) expiring then. */
  async endKey(manager: EntityManager, apiKeyId: string, change: { revokedAt: Date } | { expiresAt: Date }): Promise<void> {
    await manager.update(ApiKeyEntity, { id: apiKeyId }, change);
  }
}
