/** What other modules may use of the auth module. */
export { AuthModule } from './auth.module';
export { MerchantAuthModule } from './merchant-auth.module';
export { MerchantsService } from './merchants.service';
export type { IssuedKey } from './merchants.service';
export type { MerchantPrincipal } from './api-keys.service';
export { CurrentMerchant, MerchantRoute, PublicRoute, RailCallbackRoute } from './caller.decorator';
export type { SignedRail } from './caller.decorator';
export { installCallerAuthentication, keepsRawBody } from './caller-auth.hook';
export { TestModeOnly } from './test-mode.guard';
