/** What other modules may use of the auth module. */
export { AuthModule } from './auth.module';
export { MerchantAuthModule } from './merchant-auth.module';
export { MerchantsService } from './merchants.service';
export type { IssuedKey } from './merchants.service';
export type { MerchantPrincipal } from './api-keys.service';
export { CurrentMerchant, MerchantAuth } from './current-merchant.decorator';
export { installMerchantAuthentication, MERCHANT_API_PREFIX } from './merchant-auth.hook';
export { TestModeOnly } from './test-mode.guard';
