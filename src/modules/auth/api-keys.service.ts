import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { hashApiKey, isWellFormedApiKey } from './api-key.codec';
import type { ApiKeyPermission } from './api-key-permissions';
import { ApiKeysRepository } from './api-keys.repository';

export interface MerchantPrincipal {
  merchantId: string;
  /** What the merchant's customers see as the name on its collection accounts. */
  merchantName: string;
  apiKeyId: string;
  /** What the key may do. */
  permissions: readonly ApiKeyPermission[];
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
    private readonly repository: ApiKeysRepository,
  ) {
    if (config.apiKeyCacheTtlMs > 0) {
      // The age is not renewed on a hit, so even a busy key is checked against revocation every TTL.
      this.cache = new LRUCache({ max: MAX_CACHE_ENTRIES, ttl: config.apiKeyCacheTtlMs });
    }
  }

  /** The merchant of a key this process confirmed within the cache TTL; no lookup. */
  cached(rawKey: string | undefined): MerchantPrincipal | undefined {
    if (!rawKey || rawKey.length > 100 || !this.cache) return undefined;
    // Only well-formed keys that the database confirmed are ever cached, so a hit needs no checksum.
    return this.cache.get(hashApiKey(rawKey));
  }

  /** Looks the key up in the database (callers try `cached` first) and caches a confirmed one. */
  async lookUp(rawKey: string | undefined): Promise<MerchantPrincipal | null> {
    if (!rawKey || !isWellFormedApiKey(rawKey, this.config.apiKeyPrefix)) return null;
    const hash = hashApiKey(rawKey);
    const now = Date.now();

    const key = await this.repository.findActiveByHash(hash);
    if (!key) return null;

    const principal = { merchantId: key.merchantId, merchantName: key.merchantName, apiKeyId: key.id, permissions: key.permissions };
    // A rolled key is cached no longer than it has left.
    const left = key.expiresAt === null ? undefined : key.expiresAt.getTime() - now;
    this.cache?.set(hash, principal, left === undefined || left >= this.config.apiKeyCacheTtlMs ? undefined : { ttl: Math.max(left, 1) });
    if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
      this.repository.touch(key.id).catch((err: Error) => this.logger.warn(`last_used_at update failed: ${err.message}`));
    }
    return principal;
  }
}
