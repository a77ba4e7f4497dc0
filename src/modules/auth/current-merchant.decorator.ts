import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '../../common/http/error-body.dto';
import { ApiKeyGuard, AuthenticatedRequest } from './api-key.guard';
import { MerchantPrincipal } from './api-keys.service';

/** Guards a controller with the merchant API key and documents it. */
export const MerchantAuth = () =>
  applyDecorators(
    UseGuards(ApiKeyGuard),
    ApiSecurity('MerchantApiKey'),
    ApiBearerAuth('MerchantBearer'),
    ApiUnauthorizedResponse({ description: 'Missing, unknown, revoked or malformed API key', type: ErrorBodyDto }),
  );

export const CurrentMerchant = createParamDecorator(
  (_: unknown, context: ExecutionContext): MerchantPrincipal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().merchant,
);
