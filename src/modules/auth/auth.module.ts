import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { MerchantsService } from './merchants.service';

@Module({
  providers: [ApiKeysService, ApiKeyGuard, MerchantsService],
  exports: [ApiKeysService, ApiKeyGuard, MerchantsService],
})
export class AuthModule {}
