import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { MerchantsService } from './merchants.service';

/** Owns `merchants` and `api_keys`. */
@Module({
  providers: [ApiKeysService, ApiKeysRepository, ApiKeyGuard, MerchantsService],
  exports: [ApiKeysService, ApiKeyGuard, MerchantsService],
})
export class AuthModule {}
