import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { MerchantEntity } from './merchant.entity';
import { Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';

/** Owns `merchants` and `api_keys`: what the operator CLI needs, and nothing that needs Redis. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, MerchantEntity])],
  providers: [ApiKeysService, ApiKeysRepository, MerchantsRepository, MerchantsService],
  exports: [ApiKeysService, MerchantsService],
})
export class AuthModule {}
