import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiKeyGuard, AuthenticatedRequest } from './api-key.guard';
import { MerchantPrincipal } from './api-keys.service';

/** Guards a controller with the merchant API key and documents the schemes; each operation documents its 401 (`ApiMerchantOperation`). */
export const MerchantAuth = () => applyDecorators(UseGuards(ApiKeyGuard), ApiSecurity('MerchantApiKey'), ApiBearerAuth('MerchantBearer'));

export const CurrentMerchant = createParamDecorator(
  (_: unknown, context: ExecutionContext): MerchantPrincipal => context.switchToHttp().getRequest<AuthenticatedRequest>().merchant,
);
