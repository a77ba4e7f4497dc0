import type { ApiKeyEntity } from './api-key.entity';
import type { ApiKeyDto } from './dto/api-key.dto';

export type ApiKeyRow = Pick<
  ApiKeyEntity,
  'id' | 'name' | 'keyHint' | 'permissions' | 'createdByUserId' | 'createdByEmail' | 'createdAt' | 'lastUsedAt' | 'expiresAt' | 'revokedAt'
>;

export function mapApiKey(key: ApiKeyRow, now = Date.now()): ApiKeyDto {
  const expired = key.expiresAt !== null && key.expiresAt.getTime() <= now;
  return {
    apiKeyId: key.id,
    name: key.name,
    // The hint is `<prefix>_…<last four>`.
    prefix: key.keyHint.slice(0, key.keyHint.indexOf('_…')),
    lastFour: key.keyHint.slice(-4),
    permissions: [...key.permissions],
    status: key.revokedAt ? 'revoked' : expired ? 'expired' : key.expiresAt ? 'expiring' : 'active',
    createdBy: key.createdByUserId === null ? null : { userId: key.createdByUserId, email: key.createdByEmail ?? '' },
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
