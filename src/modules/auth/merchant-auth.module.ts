import { Module } from '@nestjs/common';
import { AuthModule } from './auth.module';
import { MerchantAuthenticator } from './merchant-authenticator.service';
import { RateLimitsService } from './rate-limits.service';

/**
 * Authentication and rate limits of merchant requests, run by `installMerchantAuthentication`
 * in the API process only. The limits' counters live in Redis and belong to no table.
 */
@Module({
  imports: [AuthModule],
  providers: [RateLimitsService, MerchantAuthenticator],
  exports: [RateLimitsService],
})
export class MerchantAuthModule {}
