import { Inject, Injectable } from '@nestjs/common';
import { searchTerms } from '../../common/search/search-terms';
import type { SearchSource } from '../../common/search/search-source';
import type { SearchResultDto } from './dto/search.dto';
import { SEARCH_SOURCES, SearchRepository } from './search.repository';

/** The dashboard's search box: every kind asked at once, in one statement, each match labelled by its kind's own rule. */
@Injectable()
export class SearchService {
  private readonly labels: ReadonlyMap<string, SearchSource['label']>;

  constructor(
    private readonly repository: SearchRepository,
    @Inject(SEARCH_SOURCES) sources: readonly SearchSource[],
  ) {
    this.labels = new Map(sources.map((source) => [source.kind, source.label]));
  }

  async search(merchantId: string, q: string): Promise<SearchResultDto[]> {
    return (await this.repository.find(merchantId, searchTerms(q))).map((row) => ({
      kind: row.kind,
      id: row.id,
      label: this.labels.get(row.kind)!(row.fields),
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
