import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService, MerchantPrincipal } from './api-keys.service';
import { UnauthorizedError } from './auth.errors';

export type AuthenticatedRequest = FastifyRequest & { merchant: MerchantPrincipal };

/** `x-api-key: <key>` wins; `Authorization: Bearer <key>` is the alternative the seed allows. */
export function extractApiKey(headers: FastifyRequest['headers']): string | undefined {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string' && direct.length > 0) return direct.trim();
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return undefined;
}

/** Puts the merchant that owns the key into the request; every failure is the same 401. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly apiKeys: ApiKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = await this.apiKeys.authenticate(extractApiKey(request.headers));
    if (!principal) throw new UnauthorizedError();
    request.merchant = principal;
    return true;
  }
}
