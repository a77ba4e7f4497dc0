import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService, MerchantPrincipal } from './api-keys.service';
import { ConflictingCredentialsError, UnauthorizedError } from './auth.errors';
import { LimitState, rateLimitHeaders } from './rate-limit-state';
import { RateLimitsService } from './rate-limits.service';

const CREDENTIAL_HEADERS = new Set(['x-api-key', 'authorization']);

/** What a request's credential headers say: one key, two different ones, or none usable. */
export type Credential = { key: string } | { conflict: true } | undefined;

/**
 * The credential of a request: `x-api-key: <key>` or `Authorization: Bearer <key>`. Both may be
 * sent when they carry the same key (generated clients apply every security scheme they are
 * given); two different keys are a conflict, never resolved by precedence, since which key acts
 * must not depend on a proxy or client library adding a header. Either header twice is unusable.
 */
export function extractCredential(rawHeaders: string[]): Credential {
  const values = new Map<string, string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!CREDENTIAL_HEADERS.has(name)) continue;
    if (values.has(name)) return undefined;
    values.set(name, rawHeaders[i + 1]);
  }
  const apiKey = values.has('x-api-key') ? values.get('x-api-key')!.trim() || null : undefined;
  const bearer = values.has('authorization') ? (/^Bearer\s+(\S+)\s*$/i.exec(values.get('authorization')!)?.[1] ?? null) : undefined;
  if (apiKey !== undefined && bearer !== undefined) return apiKey !== null && apiKey === bearer ? { key: apiKey } : { conflict: true };
  const key = apiKey ?? bearer;
  return key ? { key } : undefined;
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
    const credential = extractCredential(request.raw.rawHeaders);
    if (credential && 'conflict' in credential) return this.refuseConflict(request.ip);
    const rawKey = credential?.key;
    const principal = this.apiKeys.cached(rawKey) ?? (await this.lookUp(rawKey, request.ip));
    return { principal, limit: await this.limits.consumeForKey(principal.apiKeyId) };
  }

  private async lookUp(rawKey: string | undefined, ip: string): Promise<MerchantPrincipal> {
    await this.limits.assertAuthAttemptsLeft(ip);
    const principal = await this.apiKeys.lookUp(rawKey);
    if (!principal) throw new UnauthorizedError(rateLimitHeaders(await this.limits.recordAuthFailure(ip)));
    return principal;
  }

  /** Two different keys: a failed authentication like any other, with its own code. */
  private async refuseConflict(ip: string): Promise<never> {
    await this.limits.assertAuthAttemptsLeft(ip);
    throw new ConflictingCredentialsError(rateLimitHeaders(await this.limits.recordAuthFailure(ip)));
  }
}
