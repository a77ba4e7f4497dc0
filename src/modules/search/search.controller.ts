import { Controller, Query } from '@nestjs/common';
import { DASHBOARD_API_PATH } from '../../common/http/api-paths';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { SearchQuery, SearchResultDto, SearchResultsEnvelopeDto } from './dto/search.dto';
import { SearchService } from './search.service';

@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Operation({
    method: 'GET',
    dashboard: { path: `${DASHBOARD_API_PATH}/search`, tag: 'Dashboard: search' },
    answer: 'Search results',
    operationId: 'search',
    summary: "Find the merchant's businesses, payments, withdrawals, international payments and vault transfers",
    description:
      "By id (whole, or its start with at least 4 hex digits), merchant reference (whole; an international payment's `paymentReference`), " +
      "the start of a name (a business, a withdrawal's account name, an international recipient; without regard to case), " +
      "the last digits of an account number (3 or more), or an amount (`1250.5`, `1,250.50`; in the object's own currency). " +
      "Only the merchant's own objects are ever found.",
    success: {
      status: 200,
      type: SearchResultsEnvelopeDto,
      description: 'The matches, best first',
      example: {
        message: 'Search results',
        response: [{ kind: 'payment_intent', id: 'pi_3f9a1c2b4d5e6f708192a3b4', label: 'order-10045 · 125,000.50 NGN', createdAt: '2026-11-20T10:15:00.000Z' }],
      },
    },
    errors: ['validation_failed', 'uri_too_long'],
  })
  find(@MerchantId() merchantId: string, @Query() query: SearchQuery): Promise<SearchResultDto[]> {
    return this.search.search(merchantId, query.q);
  }
}
