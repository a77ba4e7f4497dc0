import { Injectable } from '@nestjs/common';
import { listPage, Page, PageRequest } from '../../common/paging';
import { DailyActivityListDto, DailyActivityQuery } from './dto/balance-daily.dto';
import { BalanceTransactionView, LedgerService, MerchantBalance } from './ledger.service';

/** Collections, balances and withdrawals are in NGN in this version. */
export const BALANCE_CURRENCIES = ['NGN'] as const;

/** The merchant's view of the ledger. */
@Injectable()
export class BalanceService {
  constructor(private readonly ledger: LedgerService) {}

  get(merchantId: string): Promise<MerchantBalance[]> {
    return Promise.all(BALANCE_CURRENCIES.map((currency) => this.ledger.balance(merchantId, currency)));
  }

  /** The last days' money in and out, and the balance at each day's end, from the ledger. */
  async daily(merchantId: string, query: DailyActivityQuery): Promise<DailyActivityListDto> {
    const [currency] = BALANCE_CURRENCIES;
    const timeZone = query.timeZone ?? 'UTC';
    return { currency, timeZone, days: await this.ledger.daily(merchantId, currency, query.days ?? 30, timeZone) };
  }

  transactions(merchantId: string, query: PageRequest): Promise<Page<BalanceTransactionView>> {
    return listPage(
      query,
      'btx',
      (limit, after) => this.ledger.balanceTransactions(merchantId, limit, after),
      (row) => row,
      (item) => item.balanceTransactionId,
    );
  }
}
