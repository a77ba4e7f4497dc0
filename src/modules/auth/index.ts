/** What other modules may use of the auth module. */
export { AuthModule } from './auth.module';
export { MerchantAuthModule } from './merchant-auth.module';
export { MerchantsService } from './merchants.service';
export type { IssuedKey, KeyCreator, Merchant } from './merchants.service';
export type { MerchantPrincipal } from './api-keys.service';
export {
  CurrentMerchant,
  CurrentUser,
  DashboardOperation,
  DashboardRoute,
  MerchantId,
  MerchantRoute,
  PublicRoute,
  RailCallbackRoute,
  SAFE_METHODS,
} from './caller.decorator';
export type { DashboardPrincipal, SessionAuthenticator, SignedRail } from './caller.decorator';
export { CsrfFailedError, SessionRequiredError } from './auth.errors';
export { RateLimitsService } from './rate-limits.service';
export { rateLimitHeaders } from './rate-limit-state';
export { installCallerAuthentication, keepsRawBody } from './caller-auth.hook';
export { TestModeOnly } from './test-mode.guard';
export {
  ApiKeyDto,
  ApiKeyEnvelopeDto,
  ApiKeyListEnvelopeDto,
  CreateApiKeyDto,
  IssuedApiKeyDto,
  IssuedApiKeyEnvelopeDto,
  RollApiKeyDto,
} from './dto/api-key.dto';
