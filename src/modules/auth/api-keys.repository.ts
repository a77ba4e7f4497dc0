import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../common/persistence/pg-pool';
import type { ApiKeyPermission } from './api-key-permissions';

export interface ActiveApiKey {
  id: string;
  merchantId: string;
  merchantName: string;
  permissions: ApiKeyPermission[];
  lastUsedAt: Date | null;
  /** A rolled key's end; null while it has none. */
  expiresAt: Date | null;
}

/** The key lookup runs on every request that misses the cache: one named statement. */
@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findActiveByHash(keyHash: string): Promise<ActiveApiKey | undefined> {
    const { rows } = await this.pool.query<ActiveApiKey>({
      name: 'api_key_lookup',
      text: `SELECT k.id, k.merchant_id AS "merchantId", m.name AS "merchantName", k.permissions, k.last_used_at AS "lastUsedAt", k.expires_at AS "expiresAt"
               FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
              WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
      values: [keyHash],
    });
    return rows[0];
  }

  async touch(apiKeyId: string): Promise<void> {
    await this.pool.query({ name: 'api_key_touch', text: 'UPDATE api_keys SET last_used_at = now() WHERE id = $1', values: [apiKeyId] });
  }
}
