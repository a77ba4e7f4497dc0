import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { PG_POOL } from '../../database/database.module';
import { hashApiKey, isWellFormedApiKey } from './api-key.codec';

export interface MerchantPrincipal {
  merchantId: string;
  apiKeyId: string;
}

interface CacheEntry {
  principal: MerchantPrincipal;
  expiresAt: number;
}

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
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  async authenticate(rawKey: string | undefined): Promise<MerchantPrincipal | null> {
    if (!rawKey || rawKey.length > 100) return null;
    const hash = hashApiKey(rawKey);
    const now = Date.now();
    // Only well-formed keys that the database confirmed are ever cached, so a hit needs no checksum.
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    this.cache.delete(hash);
    if (!isWellFormedApiKey(rawKey, this.config.apiKeyPrefix)) return null;

    const { rows } = await this.pool.query<{ id: string; merchant_id: string; last_used_at: Date | null }>({
      name: 'api_key_lookup',
      text: 'SELECT id, merchant_id, last_used_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      values: [hash],
    });
    const row = rows[0];
    if (!row) return null;

    const principal = { merchantId: row.merchant_id, apiKeyId: row.id };
    if (this.config.apiKeyCacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, { principal, expiresAt: now + this.config.apiKeyCacheTtlMs });
    }
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
