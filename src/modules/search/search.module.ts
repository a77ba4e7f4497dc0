import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { InternationalIntentsModule } from '../international-intents';
import { PaymentIntentsModule } from '../payment-intents';
import { PoboBusinessesModule } from '../pobo-businesses';
import { VaultModule } from '../vault';
import { WithdrawalsModule } from '../withdrawals';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

/** The dashboard's search across the objects other modules own; it owns no table. */
@Module({
  imports: [AuthModule, PoboBusinessesModule, PaymentIntentsModule, WithdrawalsModule, InternationalIntentsModule, VaultModule],
  controllers: [SearchController],
  providers: [SearchService],
})
export class SearchModule {}
