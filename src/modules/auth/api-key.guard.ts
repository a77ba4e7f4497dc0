import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MerchantPrincipal } from './api-keys.service';
import { UnauthorizedError } from './auth.errors';

export type AuthenticatedRequest = FastifyRequest & { merchant: MerchantPrincipal };

/**
 * Authentication itself happens before the body is read (`installMerchantAuthentication`); this
 * guard makes every merchant controller refuse a request that somehow reached it without a
 * merchant, e.g. a route mounted outside the merchant prefix.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!context.switchToHttp().getRequest<FastifyRequest>().merchant) throw new UnauthorizedError();
    return true;
  }
}
