import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService, MerchantPrincipal } from './api-keys.service';
import { UnauthorizedError } from './auth.errors';
import { LimitState, rateLimitHeaders } from './rate-limit-state';
import { RateLimitsService } from './rate-limits.service';

const CREDENTIAL_HEADERS = new Set(['x-api-key', 'authorization']);

/**
 * The one credential of a request: `x-api-key: <key>` or `Authorization: Bearer <key>`. A request
 * carrying both, or either twice, is refused rather than resolved by precedence: which key acts
 * must never depend on a proxy or client library adding a header.
 */
export function extractApiKey(rawHeaders: string[]): string | undefined {
  let found: { name: string; value: string } | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!CREDENTIAL_HEADERS.has(name)) continue;
    if (found) return undefined;
    found = { name, value: rawHeaders[i + 1] };
  }
  if (!found) return undefined;
  if (found.name === 'x-api-key') return found.value.trim() || undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(found.value)?.[1];
}

export interface Authenticated {
  principal: MerchantPrincipal;
  limit: LimitState;
}

/**
 * Authenticates a merchant request from its headers alone, before any of its body is read, and
 * applies the rate limits: failed authentications per client IP (checked before the key is looked
 * up, so a key-guessing flood never reaches the database), then requests per API key.
 */
@Injectable()
export class MerchantAuthenticator {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly limits: RateLimitsService,
  ) {}

  async authenticate(request: FastifyRequest): Promise<Authenticated> {
    const rawKey = extractApiKey(request.raw.rawHeaders);
    const principal = this.apiKeys.cached(rawKey) ?? (await this.lookUp(rawKey, request.ip));
    return { principal, limit: await this.limits.consumeForKey(principal.apiKeyId) };
  }

  private async lookUp(rawKey: string | undefined, ip: string): Promise<MerchantPrincipal> {
    await this.limits.assertAuthAttemptsLeft(ip);
    const principal = await this.apiKeys.lookUp(rawKey);
    if (!principal) throw new UnauthorizedError(rateLimitHeaders(await this.limits.recordAuthFailure(ip)));
    return principal;
  }
}
