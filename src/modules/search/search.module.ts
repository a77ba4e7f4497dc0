import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { INTERNATIONAL_INTENT_SEARCH } from '../international-intents';
import { PAYMENT_INTENT_SEARCH } from '../payment-intents';
import { POBO_BUSINESS_SEARCH } from '../pobo-businesses';
import { VAULT_TRANSFER_SEARCH } from '../vault';
import { WITHDRAWAL_SEARCH } from '../withdrawals';
import { SearchController } from './search.controller';
import { SearchPool } from './search.pool';
import { SEARCH_SOURCES, SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/**
 * The dashboard's search across the objects other modules own. It owns no table: each owner
 * declares how its objects are found (its `SearchSource`), and this module runs them together.
 */
@Module({
  imports: [AuthModule],
  controllers: [SearchController],
  providers: [
    { provide: SEARCH_SOURCES, useValue: [POBO_BUSINESS_SEARCH, PAYMENT_INTENT_SEARCH, WITHDRAWAL_SEARCH, INTERNATIONAL_INTENT_SEARCH, VAULT_TRANSFER_SEARCH] },
    SearchPool,
    SearchRepository,
    SearchService,
  ],
})
export class SearchModule {}
