import { Injectable } from '@nestjs/common';
import { MAX_SEARCH_RESULTS, SearchHit, searchTerms } from '../../common/search/search-terms';
import { InternationalIntentsService } from '../international-intents';
import { PaymentIntentsService } from '../payment-intents';
import { PoboBusinessesService } from '../pobo-businesses';
import { VaultTransfersService } from '../vault';
import { WithdrawalsService } from '../withdrawals';
import type { SearchResultDto } from './dto/search.dto';

/**
 * The dashboard's search box: every kind of object asked at once, each by its own module (which
 * owns its table and the keys it is found by), the answers merged best match first.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly businesses: PoboBusinessesService,
    private readonly paymentIntents: PaymentIntentsService,
    private readonly withdrawals: WithdrawalsService,
    private readonly internationalIntents: InternationalIntentsService,
    private readonly vaultTransfers: VaultTransfersService,
  ) {}

  async search(merchantId: string, q: string): Promise<SearchResultDto[]> {
    const terms = searchTerms(q);
    const found = await Promise.all(
      [this.businesses, this.paymentIntents, this.withdrawals, this.internationalIntents, this.vaultTransfers].map((kind) => kind.search(merchantId, terms)),
    );
    // An object found by two keys comes once, at its better rank.
    const best = new Map<string, SearchHit>();
    for (const hit of found.flat()) {
      const seen = best.get(hit.id);
      if (!seen || hit.rank < seen.rank) best.set(hit.id, hit);
    }
    return [...best.values()]
      .sort((a, b) => a.rank - b.rank || b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, MAX_SEARCH_RESULTS)
      .map((hit) => ({ kind: hit.kind, id: hit.id, label: hit.label, createdAt: hit.createdAt.toISOString() }));
  }
}
