import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { PG_POOL } from '../../database/database.module';
import { hashApiKey, isWellFormedApiKey } from './api-key.codec';

export interface MerchantPrincipal {
  merchantId: string;
  apiKeyId: string;
}

/** Bounds the memory a flood of distinct valid keys can take; a key pushed out is just looked up again. */
const MAX_CACHE_ENTRIES = 10_000;
/** `lastUsedAt` is kept to this precision so a busy key is not written on every request. */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * Resolves API keys to merchants. Successful lookups are cached in-process for
 * `API_KEY_CACHE_TTL_MS`, which is therefore the longest a revoked key keeps working on a
 * process that saw it just before revocation. Failures are never cached.
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** None when the TTL is 0: lru-cache would read that as "never expires". */
  private readonly cache?: LRUCache<string, MerchantPrincipal>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {
    if (config.apiKeyCacheTtlMs > 0) {
      // The age is not renewed on a hit, so even a busy key is checked against revocation every TTL.
      this.cache = new LRUCache({ max: MAX_CACHE_ENTRIES, ttl: config.apiKeyCacheTtlMs });
    }
  }

  async authenticate(rawKey: string | undefined): Promise<MerchantPrincipal | null> {
    if (!rawKey || rawKey.length > 100) return null;
    const hash = hashApiKey(rawKey);
    const now = Date.now();
    // Only well-formed keys that the database confirmed are ever cached, so a hit needs no checksum.
    const cached = this.cache?.get(hash);
    if (cached) return cached;
    if (!isWellFormedApiKey(rawKey, this.config.apiKeyPrefix)) return null;

    const { rows } = await this.pool.query<{ id: string; merchant_id: string; last_used_at: Date | null }>({
      name: 'api_key_lookup',
      text: 'SELECT id, merchant_id, last_used_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      values: [hash],
    });
    const row = rows[0];
    if (!row) return null;

    const principal = { merchantId: row.merchant_id, apiKeyId: row.id };
    this.cache?.set(hash, principal);
    if (!row.last_used_at || now - row.last_used_at.getTime() > LAST_USED_PRECISION_MS) {
      this.touch(row.id);
    }
    return principal;
  }

  private touch(apiKeyId: string): void {
    this.pool
      .query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId])
      .catch((err: Error) => this.logger.warn(`last_used_at update failed: ${err.message}`));
  }
}
